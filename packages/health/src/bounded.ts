import { withTimeout } from '@coperto/async';
import { safeErrorText } from './error-text.js';

export type BoundedOutcome<T> = { ok: true; value: T; elapsedMs: number } | { ok: false; error: string };

/** The error text of a check that did not answer in time. */
function timeoutText(timeoutMs: number): string {
  return `timeout after ${timeoutMs} ms`;
}

/**
 * Runs `fn` with a deadline. Never rejects: a throw (synchronous too) or a rejection becomes `{ok:false, error}`
 * with safe text, a deadline passed becomes `timeout after N ms`. A late settlement is ignored.
 */
export async function runBounded<T>(fn: () => T | Promise<T>, timeoutMs: number): Promise<BoundedOutcome<T>> {
  const started = performance.now();
  try {
    // The async wrapper turns a synchronous throw into a rejection.
    const value = await withTimeout((async () => fn())(), timeoutMs, () => new Error(timeoutText(timeoutMs)));
    return { ok: true, value, elapsedMs: performance.now() - started };
  } catch (error) {
    return { ok: false, error: safeErrorText(error) };
  }
}
