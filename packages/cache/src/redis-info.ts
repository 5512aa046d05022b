import type { CacheDetails } from './types.js';

/** Picks `used_memory_human` and `connected_clients` out of a Redis `INFO` reply. */
export function parseRedisInfo(info: string): CacheDetails {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  const clients = Number(fields.get('connected_clients'));
  return {
    memoryUsed: fields.get('used_memory_human') ?? 'unknown',
    connectedClients: Number.isFinite(clients) ? clients : 0,
  };
}
