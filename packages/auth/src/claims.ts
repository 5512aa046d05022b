import type { JWTPayload } from 'jose';
import { UnauthenticatedError } from '@coperto/errors';
import { isValidTenantId } from './tenant-id.js';
import type { Viewer } from './viewer.js';
import { trustedTenantId } from './viewer.js';

/**
 * Turns the claims of a token whose signature and registered claims jose has already verified into a
 * Viewer. Claims Coperto reads:
 * - `tenantId` (required): 1–64 of `A-Z a-z 0-9 _ -`;
 * - `sub` (optional string) → `subject`;
 * - `role` (optional string) and `roles` (optional array of strings) → `roles`; admin when either says "admin".
 * A claim of the wrong type refuses the token rather than being ignored.
 */
export function viewerFromClaims(claims: JWTPayload, token: string): Viewer {
  const { tenantId, sub, role, roles } = claims;
  if (tenantId === undefined) throw new UnauthenticatedError('Token has no tenantId claim');
  if (!isValidTenantId(tenantId)) throw new UnauthenticatedError('Token tenantId claim is invalid');
  if (sub !== undefined && typeof sub !== 'string')
    throw new UnauthenticatedError('Token sub claim is invalid');
  if (role !== undefined && typeof role !== 'string')
    throw new UnauthenticatedError('Token role claim is invalid');
  if (roles !== undefined && !(Array.isArray(roles) && roles.every((r) => typeof r === 'string'))) {
    throw new UnauthenticatedError('Token roles claim is invalid');
  }
  const allRoles = Object.freeze([...new Set([...(role === undefined ? [] : [role]), ...(roles ?? [])])]);
  return Object.freeze({
    tenantId: trustedTenantId(tenantId),
    subject: sub ?? null,
    roles: allRoles,
    isAdmin: allRoles.includes('admin'),
    token,
  });
}
