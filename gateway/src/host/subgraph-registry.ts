import type { SubgraphFactory } from '@coperto/server-kit';
import { createBookingsSubgraph } from '@coperto/subgraph-bookings';
import { createCanaliSubgraph } from '@coperto/subgraph-canali';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createGaranzieSubgraph, stripeSettingsOf } from '@coperto/subgraph-garanzie';
import { createOspitiSubgraph } from '@coperto/subgraph-ospiti';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createPromemoriaSubgraph, mailSettingsOf } from '@coperto/subgraph-promemoria';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { createTavoloSubgraph } from '@coperto/subgraph-tavolo';
import { createWebhooksSubgraph } from '@coperto/subgraph-webhooks';
import { createRapportiSubgraph } from '@coperto/subgraph-rapporti';
import type { GatewayConfig, SUBGRAPH_NAMES } from '../config.js';

/**
 * Every subgraph the embedded mode hosts in-process, by its supergraph name (promemoria with its SMTP settings,
 * garanzie with the Stripe settings, webhooks with WEBHOOKS_ALLOW_PRIVATE).
 */
export const subgraphFactories = (
  config: GatewayConfig,
): Record<(typeof SUBGRAPH_NAMES)[number], SubgraphFactory> => ({
  tavolo: createTavoloSubgraph,
  sala: createSalaSubgraph,
  prenotazione: createPrenotazioneSubgraph,
  bookings: createBookingsSubgraph,
  capacity: createCapacitySubgraph,
  canali: createCanaliSubgraph,
  ospiti: createOspitiSubgraph,
  promemoria: (deps) => createPromemoriaSubgraph(deps, mailSettingsOf(config)),
  garanzie: (deps) => createGaranzieSubgraph(deps, stripeSettingsOf(config)),
  webhooks: (deps) => createWebhooksSubgraph(deps, { allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE }),
  rapporti: createRapportiSubgraph,
});
