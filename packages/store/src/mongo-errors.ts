import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DuplicateKeyError, StoreUnavailableError } from './errors.js';

/**
 * Maps MongoDB driver errors to the store's (pure): duplicate key (code 11000) → DuplicateKeyError naming the
 * index; the server not answering (network, server selection, socket timeout, pool cleared or closed, server
 * shutting down or not primary; also such an error wrapped by a bulk write) → StoreUnavailableError; anything else
 * is returned unchanged (a bug or a server-side refusal, e.g. `$inc` on a string).
 */
export function toStoreError(error: unknown): unknown {
  if (error instanceof DuplicateKeyError || error instanceof StoreUnavailableError) return error;
  if (isDuplicateKey(error)) return new DuplicateKeyError(duplicateIndexName(error), { cause: error });
  if (isUnavailable(error)) return new StoreUnavailableError({ cause: error });
  return error;
}

export function isDuplicateKey(error: unknown): boolean {
  return codeOf(error) === 11000;
}

/**
 * The index an E11000 names (`… index: codice dup key: …`): the IndexSpec name, or `id` for `_id_`. Both
 * MongoDB and mongo-java-server put it in the message; `unknown` if a server ever does not.
 */
function duplicateIndexName(error: unknown): string {
  const message = String((error as { message?: unknown }).message ?? '');
  const name = /index: (\S+)/.exec(message)?.[1];
  if (name === undefined) return 'unknown';
  return name === '_id_' ? 'id' : name;
}

/** NamespaceNotFound (26): the collection does not exist. */
export function isMissingNamespace(error: unknown): boolean {
  return codeOf(error) === 26;
}

/** IndexNotFound (27): no index of that name. */
export function isMissingIndex(error: unknown): boolean {
  return codeOf(error) === 27;
}

/** Server error codes that mean "not answering now, try later" rather than "refused". */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const UNAVAILABLE_NAMES = new Set([
  'MongoWaitQueueTimeoutError',
  'MongoPoolClosedError',
  'MongoPoolClearedError',
]);

function isUnavailable(error: unknown): boolean {
  // A bulk write wraps the driver error that ended it (a connection closed mid-batch) as its `errorResponse`.
  const wrapped = (error as { errorResponse?: unknown } | null)?.errorResponse;
  if (wrapped instanceof Error && wrapped !== error && isUnavailable(wrapped)) return true;
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoNotConnectedError
  ) {
    return true;
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return true;
  // A socket the server closed mid-write surfaces as a plain Node error (EPIPE, "This socket has been ended").
  const systemCode = (error as { code?: unknown } | null)?.code;
  if (typeof systemCode === 'string' && SOCKET_ERROR_CODES.has(systemCode)) return true;
  const code = codeOf(error);
  return code !== undefined && UNAVAILABLE_CODES.has(code);
}

const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** `code`, or the first write error's code (bulk writes). */
function codeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, writeErrors } = error as { code?: unknown; writeErrors?: Array<{ code?: unknown }> };
  if (typeof code === 'number') return code;
  const first = Array.isArray(writeErrors) ? writeErrors[0]?.code : undefined;
  return typeof first === 'number' ? first : undefined;
}
