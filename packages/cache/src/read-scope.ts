import { randomUUID } from 'node:crypto';
import type { TenantCache } from './types.js';

/**
 * Versioned read scopes: a cached answer is stored under the scope's current version, and every write to the
 * scope's data replaces the version (before the write is acknowledged), so no reader is served an answer older
 * than an acknowledged write. A random version (not a counter) needs no atomic increment on either adapter.
 */
const versionKey = (scope: string) => `scope:${scope}:version`;

/**
 * The read scopes the services bump: one source for their names, used by the owners (tavolo, sala, prenotazione)
 * and by the readers (the gateway's REST and GraphQL read caches, tavolo's table directories, prenotazione's day
 * sums).
 */
export const READ_SCOPES = {
  /** Every write to a table (tavolo subgraph, collection `tavoli`). */
  tables: 'tavoli',
  /** Every write to a room (sala subgraph, collection `sale`). */
  rooms: 'sale',
  /** Every write to a booking (prenotazione subgraph, collection `prenotazioni`): its day sums (`arriviGiorno`). */
  bookings: 'prenotazioni',
} as const;
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

/**
 * The key of a cached answer that reads several scopes, for their current versions (read together): replaced
 * whenever any of them is. `scopes` in a fixed order (the key names them in that order).
 */
export async function readScopesKey(
  cache: TenantCache,
  scopes: readonly string[],
  answer: string,
): Promise<string> {
  const versions = await Promise.all(
    scopes.map(async (scope) => `${scope}=${(await cache.get<string>(versionKey(scope))) ?? 'initial'}`),
  );
  return `scopes:${versions.join(',')}:${answer}`;
}

/**
 * The scope's current version, for a process that keeps its own copy of the scope's data (in memory, keyed by
 * this version) instead of storing answers in the cache. Read it before loading the data: a copy loaded after
 * reading version V is at least as new as every write acknowledged before V was replaced. When the scope has no
 * version yet (never written, expired, evicted, or the cache is unreachable) a fresh one is set and returned, so
 * a copy is never keyed by a version some earlier, since-replaced copy also had (the copy loaded now, after
 * the version was set, is current); with the cache unreachable every call gets a version of its own (no reuse).
 */
export async function readScopeVersion(cache: TenantCache, scope: string): Promise<string> {
  const current = await cache.get<string>(versionKey(scope));
  if (current !== null) return current;
  const fresh = randomUUID();
  await cache.set(versionKey(scope), fresh, VERSION_TTL_SECONDS);
  return fresh;
}
