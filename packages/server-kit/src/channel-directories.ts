import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import type { ChannelDirectory, TenantId } from '@coperto/auth';
import { AppError } from '@coperto/errors';
import type { SubgraphClient } from './subgraph-client.js';

/**
 * A process's channel directory, bound once its hosting knows where channels live: the canali subgraph's own
 * (its store) when this process hosts it, else `askingCanali` (the canali subgraph through its GraphQL API).
 * Until it is bound, every channel key is refused.
 */
export interface LateChannelDirectory extends ChannelDirectory {
  bind(directory: ChannelDirectory): void;
}

export function lateChannelDirectory(): LateChannelDirectory {
  let bound: ChannelDirectory | undefined;
  return {
    bind(directory) {
      bound = directory;
    },
    isActive(tenantId, channelId, token) {
      return bound ? bound.isActive(tenantId, channelId, token) : Promise.resolve(false);
    },
  };
}

/** Canali's `canaleCorrente`: answers for a key whose channel exists, 401 for one whose channel was deleted. */
const CURRENT_CHANNEL: TypedDocumentNode<{ canaleCorrente: { id: string } }, Record<string, never>> = parse(
  'query CanaleCorrente { canaleCorrente { id } }',
);

/**
 * Asks the canali subgraph, with the channel key itself, whether its channel still exists: canali verifies the key
 * against its own store (so the question never comes back here). UNAUTHENTICATED is "deleted"; anything else
 * (canali down: UNAVAILABLE) is thrown, so the request fails without guessing.
 */
export function askingCanali(subgraphs: SubgraphClient): ChannelDirectory {
  return {
    async isActive(_tenantId: TenantId, channelId: string, token: string) {
      try {
        const { canaleCorrente } = await subgraphs.request('canali', CURRENT_CHANNEL, {}, `Bearer ${token}`);
        return canaleCorrente.id === channelId;
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return false;
        throw error;
      }
    },
  };
}
