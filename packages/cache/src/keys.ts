import type { TenantId } from '@coperto/auth';

/**
 * `<prefix>:<tenantId>:<key>`. The tenant segment is URI-encoded, so it never contains `:` and two different
 * (tenant, key) pairs can never produce the same string (tenant `a:b` + key `c` vs tenant `a` + key `b:c`).
 * Ordinary tenant ids (letters, digits, `-`, `_`, `.`) are unchanged by the encoding.
 */
export function tenantKey(prefix: string, tenantId: TenantId, key: string): string {
  return `${prefix}:${encodeURIComponent(tenantId)}:${key}`;
}

export function assertPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || prefix.length === 0 || prefix.includes(':')) {
    throw new TypeError('cache keyPrefix must be a non-empty string without ":"');
  }
}

export function assertTenantId(tenantId: TenantId): void {
  if (typeof tenantId !== 'string' || tenantId.length === 0) {
    throw new TypeError('tenantId must be a non-empty string');
  }
}

/** Keys up to this length; longer ones are a programming error (hash them first). */
export const MAX_KEY_LENGTH = 1024;

export function assertKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new TypeError(`cache key must be a non-empty string of at most ${MAX_KEY_LENGTH} characters`);
  }
}

/** TTL in whole milliseconds (at least 1). */
export function ttlMilliseconds(ttlSeconds: number): number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new TypeError('ttlSeconds must be a positive finite number');
  }
  return Math.max(1, Math.ceil(ttlSeconds * 1000));
}
