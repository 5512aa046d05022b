// The prenotazione subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { runSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createPrenotazioneSubgraph } from './subgraph.js';

await runSubgraphProcess({ name: 'prenotazione', create: createPrenotazioneSubgraph, config, subgraphUrls });
