import { randomBytes } from 'node:crypto';
import { loadJose } from './deps.js';

/** A fresh HS256 secret for this run (the processes get it as JWT_SECRET). */
export const newJwtSecret = () => randomBytes(32).toString('base64url');

/** A bearer token with Coperto's claims: `tenantId`, and `role: "admin"` for an administrator. */
export async function mintToken(secret: string, tenantId: string, options: { admin?: boolean } = {}) {
  const { SignJWT } = await loadJose();
  return new SignJWT({ tenantId, ...(options.admin ? { role: 'admin' } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setSubject('bench')
    .setExpirationTime('3h')
    .sign(new TextEncoder().encode(secret));
}
