/**
 * The recorded history of a generated program: every request with the device and tenant that sent it, its send
 * and answer times (one monotonic clock, ms), status and body. The invariant checkers (invariants.ts) read only
 * this, the events the bus delivered and the final state read back, never the clock of the service.
 */

/** What an operation meant, in domain terms (the checkers reason on these, not on URLs). */
export type Intent =
  | { kind: 'createTable'; tableId?: string }
  | { kind: 'lock'; tableId: string; deviceId: string; ttl: number }
  | { kind: 'unlock'; tableId: string; deviceId: string }
  | { kind: 'forceUnlock'; tableId: string }
  | { kind: 'status'; tableId: string; status: string; deviceId?: string }
  | { kind: 'patchTable'; tableId: string; seats: number; deviceId?: string }
  | { kind: 'deleteTable'; tableId: string }
  | { kind: 'createBooking'; tableIds: string[]; start: string; minutes: number }
  | { kind: 'moveBooking'; bookingId: string; tableIds?: string[]; start?: string }
  | { kind: 'confirm'; bookingId: string }
  | { kind: 'cancel'; bookingId: string }
  | {
      kind: 'batch';
      items: Array<{ externalId: string; tableIds: string[]; start: string; minutes: number }>;
    }
  | { kind: 'check'; start: string; minutes: number; covers: number }
  /** The booking attempt a `check` answered free for (same window, one table the check listed). */
  | { kind: 'bookAfterCheck'; checkId: number; tableIds: string[]; start: string; minutes: number }
  // Seating (seating.e2e.test.ts; a few under faults):
  | { kind: 'createCombination'; tableIds: string[]; minCovers: number; maxCovers: number }
  /**
   * A booking with `autoAssign: true`: the service picks its tables (and may move other auto-assigned ones).
   * `searchId`: the time was offered by that `search` (its `durationMinutes` when shortened).
   */
  | { kind: 'autoBook'; start: string; covers: number; minutes: number | null; searchId?: number }
  /** GET /api/disponibilita for a party, nearest to `start` (`limite=1`). */
  | { kind: 'search'; start: string; covers: number }
  | { kind: 'bookCombination'; combinationId: string; start: string; covers: number }
  | {
      kind: 'setSeating';
      reseat: boolean;
      turnTimes: Array<{ maxCovers: number; minutes: number }>;
      shortenedMinMinutes?: number | null;
    }
  /** An option on chosen tables (`tableIds`) or auto-assigned (none). */
  | { kind: 'createOption'; tableIds?: string[]; start: string; covers: number; ttl: number }
  /** A booking from an option (`opzioneId`): the booking takes the option's id and tables. */
  | { kind: 'convertOption'; optionId: string }
  | { kind: 'releaseOption'; optionId: string }
  | { kind: 'waitAdd'; covers: number }
  | { kind: 'waitNotify'; entryId: string }
  /** Seat a waitlist party: on `tableIds`, or (none) the suggested fit. Sets those tables `occupied`. */
  | { kind: 'waitSeat'; entryId: string; tableIds?: string[] }
  | { kind: 'waitCancel'; entryId: string; state: 'left' | 'cancelled' }
  /** The floor through `/graphql` (`{ tavoli { id seats } }`): answered from the gateway's read cache when it can. */
  | { kind: 'floorRead' };

export interface HistoryEntry {
  /** Position in the history (also the order requests were sent in). */
  id: number;
  tenant: string;
  device: string;
  intent: Intent;
  method: string;
  path: string;
  body?: unknown;
  sentAt: number;
  answeredAt: number;
  /** HTTP status; 0 when no answer came (connection refused or reset). */
  status: number;
  response: any;
}

/** A CloudEvent as the checkers need it. */
export interface SeenEvent {
  id: string;
  type: string;
  subject: string;
  tenantid: string;
  data: any;
  /** The NATS subject (or in-process bus subject) it arrived on. */
  busSubject?: string;
}

/** The definite refusals: 4xx answers wrote nothing. Anything else (2xx, 5xx, no answer) may have written. */
export const mayHaveWritten = (entry: HistoryEntry): boolean =>
  entry.status === 0 || entry.status >= 500 || entry.status < 400;
export const acknowledged = (entry: HistoryEntry): boolean => entry.status >= 200 && entry.status < 300;

/** A monotonic clock shared by every device of a program (ms, fractional). */
export const now = (): number => performance.now();

export class HistoryRecorder {
  readonly entries: HistoryEntry[] = [];

  async record(
    meta: Pick<HistoryEntry, 'tenant' | 'device' | 'intent' | 'method' | 'path' | 'body'>,
    send: () => Promise<{ status: number; body: unknown }>,
  ): Promise<HistoryEntry> {
    const entry: HistoryEntry = {
      id: this.entries.length,
      ...meta,
      sentAt: now(),
      answeredAt: Number.NaN,
      status: 0,
      response: undefined,
    };
    this.entries.push(entry);
    try {
      const answer = await send();
      entry.status = answer.status;
      entry.response = answer.body;
    } catch (error) {
      entry.status = 0;
      entry.response = { transportError: String((error as Error).message ?? error) };
    }
    entry.answeredAt = now();
    return entry;
  }
}

/** How much of an answer a history line shows: enough for a batch's item results and their error codes. */
const ANSWER_CHARS = 800;

/** A short, readable line per request (printed with a failing program). */
export function describeEntry(e: HistoryEntry): string {
  const body = e.body === undefined ? '' : ` ${JSON.stringify(e.body)}`;
  const answer = typeof e.response === 'object' ? JSON.stringify(e.response) : String(e.response);
  return `#${e.id} [${e.sentAt.toFixed(1)}–${e.answeredAt.toFixed(1)}] ${e.device}@${e.tenant} ${e.method} ${e.path}${body} → ${e.status} ${answer?.slice(0, ANSWER_CHARS)}`;
}
