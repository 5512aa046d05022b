import type { ServiceGrant } from './service-grant.js';

/**
 * A tenant id that came from a verified token (or, for system code such as the outbox relay, from a record
 * that was written under one). The brand makes "query with a tenant the caller typed in" a compile error:
 * stores only accept a TenantId.
 */
export type TenantId = string & { readonly __brand: 'TenantId' };

/** Only the token verifier, system code handling stored records, and tests call this. */
export function trustedTenantId(value: string): TenantId {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError('tenantId must be a non-empty string');
  return value as TenantId;
}

/** Who is calling: built once per request from the verified token. */
export interface Viewer {
  readonly tenantId: TenantId;
  /** `sub` claim, when present. */
  readonly subject: string | null;
  readonly roles: readonly string[];
  /** claim `role: "admin"` or `roles` containing `"admin"`. */
  readonly isAdmin: boolean;
  /** The raw bearer token, forwarded to subgraphs and to prenotazione by the availability check. */
  readonly token: string;
  /**
   * Set only for a token the service issued (a channel key or a guest token, verified with the service key): what
   * it may do. Absent for staff and administrators.
   */
  readonly grant?: ServiceGrant;
}
