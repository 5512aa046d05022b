/**
 * What a tenant id may look like: 1–64 of `A-Z a-z 0-9 _ -`. Tenant ids become parts of NATS subjects
 * (`tenant.<tenantId>.restaurant…`), cache keys and document filters, so `.`, `*`, `>`, spaces and other
 * separators are refused.
 */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** True when `value` is a string that may be used as a tenant id (see TENANT_ID_PATTERN). */
export function isValidTenantId(value: unknown): value is string {
  return typeof value === 'string' && TENANT_ID_PATTERN.test(value);
}
