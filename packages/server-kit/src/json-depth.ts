export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How deeply a public request body may nest objects and arrays. Deeper JSON parses, but every recursive step
 * after parsing (GraphQL variable coercion, BSON encoding, `JSON.stringify`) could overflow the stack, so it
 * is refused up front with a 400 naming `body`.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The limit on the subgraph ports: they receive the gateway's requests, whose variables wrap a public body of
 * up to `MAX_JSON_DEPTH` levels in the operation envelope (`variables.input.items[…]`).
 */
export const INTERNAL_MAX_JSON_DEPTH = 2 * MAX_JSON_DEPTH;

/**
 * True when the JSON text nests objects/arrays deeper than `maxDepth` (brackets inside strings do not count).
 * One linear pass, no recursion, so it is safe on any input. Pure.
 */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** True when the request says it carries JSON (`application/json`, optionally with a charset). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json' && !(type?.startsWith('application/') && type.endsWith('+json')))
    return false;
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}
