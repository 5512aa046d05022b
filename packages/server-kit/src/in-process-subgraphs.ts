import type { ChannelDirectory } from '@coperto/auth';
import { askingCanali } from './channel-directories.js';
import type { Logger } from './logger.js';
import { createSubgraphExecutor, type SubgraphExecutor } from './execute-subgraph.js';
import { createInProcessSubgraphClient, type SubgraphClient } from './subgraph-client.js';
import type { Subgraph, SubgraphDeps, SubgraphFactory } from './subgraph.js';

export interface InProcessSubgraphs {
  subgraphs: Subgraph<unknown>[];
  executors: Map<string, SubgraphExecutor>;
  /** How the hosted subgraphs call each other (and what tests use to call them). */
  client: SubgraphClient;
  /** Where this process learns whether a channel still exists: canali's own when hosted, else asking it. */
  channelDirectory: ChannelDirectory;
}

/**
 * Builds and initialises subgraphs in this process (embedded mode, and tests), wired to call each other
 * in-process through their GraphQL APIs.
 */
export async function hostSubgraphsInProcess(options: {
  factories: Readonly<Record<string, SubgraphFactory>>;
  deps: Omit<SubgraphDeps, 'subgraphs'>;
  onInternalError?: (error: unknown) => void;
  /** Each subgraph's access lines. */
  logger?: Logger;
}): Promise<InProcessSubgraphs> {
  const executors = new Map<string, SubgraphExecutor>();
  const client = createInProcessSubgraphClient((name) => executors.get(name));
  const subgraphs = Object.entries(options.factories).map(([name, create]) => {
    const subgraph = create({ ...options.deps, subgraphs: client });
    if (subgraph.name !== name) throw new Error(`Subgraph ${name} calls itself ${subgraph.name}`);
    return subgraph;
  });
  for (const subgraph of subgraphs) {
    await subgraph.init();
    executors.set(
      subgraph.name,
      createSubgraphExecutor(subgraph, {
        ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
        ...(options.logger ? { logger: options.logger.child({ subgraph: subgraph.name }) } : {}),
      }),
    );
  }
  const owner = subgraphs.find((s) => s.channelDirectory !== undefined);
  return { subgraphs, executors, client, channelDirectory: owner?.channelDirectory ?? askingCanali(client) };
}
