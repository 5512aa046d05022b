import { z } from 'zod';

/**
 * The three kinds of environment text plain zod has no one-word schema for. Everything else is zod as it is:
 * `z.coerce.number().int().min(0).max(65535)`, `z.enum([...])`, `z.string().min(32)`, `.optional()`, `.default()`.
 */

/** `true`/`false`/`1`/`0`, any case; anything else is an error, not `false`. */
export const envBoolean = z.stringbool({ truthy: ['true', '1'], falsy: ['false', '0'] });

/** A comma-separated list (`RS256, ES256`): items trimmed, empty ones dropped, at least one; frozen. */
export const envList = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  )
  .pipe(z.array(z.string()).min(1, 'expected a comma-separated list, got no items'))
  .transform((items): readonly string[] => Object.freeze(items));

/**
 * An absolute URL with one of `schemes`, kept as the string given (drivers want strings). A scheme and an
 * authority are enough, so multi-host URLs such as `mongodb://a:27017,b:27017/db` (which WHATWG `URL` refuses)
 * pass. The error names the schemes, never the value (it may carry a password).
 */
export function envUrl(...schemes: readonly [string, ...string[]]) {
  const pattern = new RegExp(
    `^(?:${schemes.map((s) => s.replace(/[+.]/g, '\\$&')).join('|')})://[^\\s/?#]+`,
    'i',
  );
  return z.string().regex(pattern, `expected a URL with scheme ${schemes.join(', ')}`);
}
