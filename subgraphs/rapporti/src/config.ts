import { readSubgraphConfig } from '@coperto/server-kit';

/** The only place this process reads its environment (serviceConfigSpec + SUBGRAPH_<NAME>_URL). */
export const { config, subgraphUrls } = readSubgraphConfig(process.env);
