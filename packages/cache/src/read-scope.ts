import { randomUUID } from 'node:crypto';
import type { TenantCache } from './types.js';

/**
 * Versioned read scopes: a cached answer is stored under the scope's current version, and every write to the
 * scope's data replaces the version (before the write is acknowledged), so no reader is served an answer older
 * than an acknowledged write. A random version (not a counter) needs no atomic increment on either adapter.
 */
const versionKey = (scope: string) => `scope:${scope}:version`;
const VERSION_TTL_SECONDS = 86_400;

/** Called by the owner of the data after each write, before answering. */
export async function bumpReadScope(cache: TenantCache, scope: string): Promise<void> {
  await cache.set(versionKey(scope), randomUUID(), VERSION_TTL_SECONDS);
}

/** The key of a cached answer in the scope, for the scope's current version. */
export async function readScopeKey(cache: TenantCache, scope: string, answer: string): Promise<string> {
  const version = (await cache.get<string>(versionKey(scope))) ?? 'initial';
  return `scope:${scope}:${version}:${answer}`;
}
