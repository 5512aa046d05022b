/** Short forms of the REST errors the simulator meets, for its counts and notes. */
import { ApiError } from '../api.js';

/** The `error.code` of a REST error body, if any. */
export function errorCode(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  try {
    return (JSON.parse(error.body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

/** "POST /api/combinazioni → 404 NOT_FOUND" (an ApiError), else the first line of the message. */
export function briefError(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  if (error instanceof ApiError) {
    const head = message.split(': ')[0]!;
    const code = errorCode(error);
    return code ? `${head} ${code}` : head;
  }
  return message.split('\n')[0]!.slice(0, 200);
}
