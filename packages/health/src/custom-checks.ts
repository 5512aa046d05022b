import { runBounded } from './bounded.js';
import { safeErrorText } from './error-text.js';
import type { CustomCheck, CustomCheckResult } from './types.js';

const STATUSES = new Set(['up', 'down', 'degraded']);

/** A check's own result, with the status validated and any Error in `error` turned into safe text. */
export function normalizeCustomResult(value: unknown): CustomCheckResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { status: 'down', error: 'invalid check result' };
  }
  const result = { ...(value as Record<string, unknown>) };
  if (typeof result.status !== 'string' || !STATUSES.has(result.status)) {
    return { status: 'down', error: 'invalid check result' };
  }
  if (result.error !== undefined && typeof result.error !== 'string')
    result.error = safeErrorText(result.error);
  return result as CustomCheckResult;
}

/** Custom checks by name; each run is parallel and bounded, and never rejects. */
export class CustomChecks {
  private readonly checks = new Map<string, CustomCheck>();

  /** Adds a check; a name already taken is a programming error. Returns the remover. */
  register(name: string, check: CustomCheck): () => void {
    if (typeof name !== 'string' || name.length === 0)
      throw new TypeError('check name must be a non-empty string');
    if (typeof check !== 'function') throw new TypeError('check must be a function');
    if (this.checks.has(name)) throw new Error(`A health check named ${name} is already registered`);
    this.checks.set(name, check);
    return () => {
      if (this.checks.get(name) === check) this.checks.delete(name);
    };
  }

  get size(): number {
    return this.checks.size;
  }

  async run(timeoutMs: number): Promise<Record<string, CustomCheckResult>> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        const outcome = await runBounded(check, timeoutMs);
        const result: CustomCheckResult = outcome.ok
          ? normalizeCustomResult(outcome.value)
          : { status: 'down', error: outcome.error };
        return [name, result] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}
