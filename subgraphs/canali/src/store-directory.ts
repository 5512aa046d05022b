import type { ChannelDirectory } from '@coperto/auth';
import type { DocumentStore } from '@coperto/store';
import { CanaleStore } from './canale-store.js';

/**
 * The process that hosts canali tells from its own collection whether a channel still exists; every other process
 * asks canali (server-kit's askingCanali), whose answer comes from here.
 */
export function storeChannelDirectory(store: DocumentStore): ChannelDirectory {
  return {
    async isActive(tenantId, channelId) {
      return (await new CanaleStore(store.forTenant(tenantId)).findActive(channelId)) !== null;
    },
  };
}
