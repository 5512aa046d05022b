/**
 * The HS256 secret used ONLY by embedded mode when no JWT_SECRET (nor public key, nor JWKS URL) is configured,
 * so that `start` works with zero configuration. It is public (it is in this file), so tokens signed with it
 * prove nothing: the embedded process logs a loud warning when it falls back to it, and distributed
 * processes never use it.
 */
export const EMBEDDED_DEV_SECRET = 'coperto-embedded-dev-secret-do-not-use-in-production';
