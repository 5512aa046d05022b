/**
 * The shape of an email address, the one rule of every email field: ospiti's guest profiles, a booking's
 * `customerEmail`, and the `pattern` /openapi.json states for them (gateway/src/rest/input-constraints.ts).
 * Something, an `@`, a domain with a dot, no white space. White space here is what either JavaScript's or
 * Python's `\s` calls so (plus U+001C–U+001F, U+0085 and U+FEFF, on which they differ), so that every JSON Schema
 * engine, the contract test's included, reads the pattern alike.
 */
const ADDRESS_CHAR = '[^\\s@\\x1c-\\x1f\\x85\\ufeff]';
const ADDRESS = `${ADDRESS_CHAR}+@${ADDRESS_CHAR}+\\.${ADDRESS_CHAR}+`;

/** The longest address stored (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** An address, as the services test it once trimmed. */
export const EMAIL_ADDRESS_PATTERN = `^${ADDRESS}$`;

/**
 * What a request's email field may carry: an address, blanks around it (the services trim them), or nothing
 * (empty). A blank-only text is left out: ospiti refuses it, while bookings read it as no address.
 */
export const EMAIL_FIELD_PATTERN = `^(?:[ \\t\\r\\n]*${ADDRESS}[ \\t\\r\\n]*)?$`;

const ADDRESS_RE = new RegExp(EMAIL_ADDRESS_PATTERN, 'u');

/** Whether a trimmed text has an email address's shape (its length is the caller's check: EMAIL_MAX_LENGTH). */
export function isEmailAddress(text: string): boolean {
  return ADDRESS_RE.test(text);
}
