/** The value a label takes once its distinct-value budget is spent. */
export const OVERFLOW_LABEL = '__other__';

/**
 * Caps the distinct values of one label. Route and operation names partly come from clients (an operation
 * name is free text), and every distinct value is a new time series: after `max` distinct values, new ones
 * are reported as `__other__` so that a client cannot grow the registry without bound.
 */
export class LabelGuard {
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  value(raw: string): string {
    if (this.seen.has(raw)) return raw;
    if (this.seen.size >= this.max) return OVERFLOW_LABEL;
    this.seen.add(raw);
    return raw;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Upper-cased HTTP method; anything unusual is `OTHER`. */
export function methodLabel(method: string | undefined): string {
  const upper = (method ?? '').toUpperCase();
  return METHODS.has(upper) ? upper : 'OTHER';
}
