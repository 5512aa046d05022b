// The rapporti subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { runSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createRapportiSubgraph } from './subgraph.js';

await runSubgraphProcess({
  name: 'rapporti',
  create: (deps) => createRapportiSubgraph(deps),
  config,
  subgraphUrls,
});
