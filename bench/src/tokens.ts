import { randomBytes } from 'node:crypto';
import { loadJose } from './deps.js';

/** A fresh HS256 secret for this run (the processes get it as JWT_SECRET). */
export const newJwtSecret = () => randomBytes(32).toString('base64url');

/**
 * A bearer token with Coperto's claims: `tenantId`, and `role: "admin"` for an administrator. Valid from now for
 * 3 h, or over `validity` (epoch seconds) for a service on a virtual clock (scenario 8).
 */
export async function mintToken(
  secret: string,
  tenantId: string,
  options: { admin?: boolean; validity?: { issuedAt: number; expiresAt: number } } = {},
) {
  const { SignJWT } = await loadJose();
  return new SignJWT({ tenantId, ...(options.admin ? { role: 'admin' } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(options.validity?.issuedAt)
    .setSubject('bench')
    .setExpirationTime(options.validity?.expiresAt ?? '3h')
    .sign(new TextEncoder().encode(secret));
}
