import type { NatsBusOptions } from './nats-bus.js';
import type { EventBus } from './types.js';

/**
 * Connects to NATS, loading the client on the first call: a process that never connects (embedded mode) never
 * loads it (≈ 14 MB of RSS).
 */
export async function connectNatsBus(options: NatsBusOptions): Promise<EventBus> {
  const adapter = await import('./nats-bus.js');
  return adapter.connectNatsBus(options);
}
