import { createHash } from 'node:crypto';
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

/** Keys up to this length are stored as they are; longer ones are stored under a digest (`boundedKey`). */
export const MAX_KEY_LENGTH = 1024;

/** How much of an over-long key stays readable in front of its digest. */
const KEEP_CHARS = 128;

export function assertKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError('cache key must be a non-empty string');
  }
}

/**
 * The key as stored: unchanged up to `MAX_KEY_LENGTH` characters, else its first characters and the SHA-256 of
 * the whole key. Keys often carry caller input (a filter, an id from the URL), so a long one is not an error;
 * the digest keeps two different long keys apart. Pure.
 */
export function boundedKey(key: string): string {
  if (key.length <= MAX_KEY_LENGTH) return key;
  const digest = createHash('sha256').update(key, 'utf8').digest('hex');
  return `${key.slice(0, KEEP_CHARS)}#sha256:${digest}`;
}

/** TTL in whole milliseconds (at least 1). */
export function ttlMilliseconds(ttlSeconds: number): number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new TypeError('ttlSeconds must be a positive finite number');
  }
  return Math.max(1, Math.ceil(ttlSeconds * 1000));
}
