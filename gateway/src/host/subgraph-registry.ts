import type { SubgraphFactory } from '@coperto/server-kit';
import { createBookingsSubgraph } from '@coperto/subgraph-bookings';
import { createCanaliSubgraph } from '@coperto/subgraph-canali';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createOspitiSubgraph } from '@coperto/subgraph-ospiti';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { createTavoloSubgraph } from '@coperto/subgraph-tavolo';
import { createWebhooksSubgraph } from '@coperto/subgraph-webhooks';
import type { GatewayConfig, SUBGRAPH_NAMES } from '../config.js';

/** Every subgraph the embedded mode hosts in-process, by its supergraph name, with the settings this process read. */
export const subgraphFactories = (
  config: Pick<GatewayConfig, 'WEBHOOKS_ALLOW_PRIVATE'>,
): Record<(typeof SUBGRAPH_NAMES)[number], SubgraphFactory> => ({
  tavolo: createTavoloSubgraph,
  sala: createSalaSubgraph,
  prenotazione: createPrenotazioneSubgraph,
  bookings: createBookingsSubgraph,
  capacity: createCapacitySubgraph,
  canali: createCanaliSubgraph,
  ospiti: createOspitiSubgraph,
  webhooks: (deps) => createWebhooksSubgraph(deps, { allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE }),
});
