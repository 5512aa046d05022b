import { readSubgraphConfig } from '@coperto/server-kit';

/** The only place this process reads its environment (serviceConfigSchema + SUBGRAPH_<NAME>_URL). */
export const { config, subgraphUrls } = readSubgraphConfig(process.env);
