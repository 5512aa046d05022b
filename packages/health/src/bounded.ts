import { safeErrorText } from './error-text.js';

export type BoundedOutcome<T> = { ok: true; value: T; elapsedMs: number } | { ok: false; error: string };

/** The error text of a check that did not answer in time. */
export function timeoutText(timeoutMs: number): string {
  return `timeout after ${timeoutMs} ms`;
}

/**
 * Runs `fn` with a deadline. Never rejects: a throw (synchronous too) or a rejection becomes `{ok:false, error}`
 * with safe text, a deadline passed becomes `timeout after N ms`. A late settlement is ignored.
 */
export function runBounded<T>(fn: () => T | Promise<T>, timeoutMs: number): Promise<BoundedOutcome<T>> {
  const started = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: timeoutText(timeoutMs) }), timeoutMs);
    const finish = (outcome: BoundedOutcome<T>) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(fn());
    } catch (error) {
      finish({ ok: false, error: safeErrorText(error) });
      return;
    }
    pending.then(
      (value) => finish({ ok: true, value, elapsedMs: performance.now() - started }),
      (error: unknown) => finish({ ok: false, error: safeErrorText(error) }),
    );
  });
}
