import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { SubgraphExecutor } from '@coperto/server-kit';
import type { GatewayContext } from '../graphql/context.js';

/**
 * Embedded mode: the gateway executes a subgraph in the same process. Unlike Apollo's
 * LocalGraphQLDataSource it does not hand the gateway's context to the subgraph: the subgraph builds its own
 * from the forwarded Authorization header, exactly as it does over HTTP, and parses each fetch query once.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(private readonly executor: SubgraphExecutor) {}

  async process(
    options: GraphQLDataSourceProcessOptions<GatewayContext>,
  ): ReturnType<GraphQLDataSource['process']> {
    const context = 'context' in options ? (options.context as Partial<GatewayContext>) : {};
    const { request } = options;
    return (await this.executor(
      { query: request.query, variables: request.variables, operationName: request.operationName },
      { authorization: context.authorization, requestId: context.requestId },
    )) as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }
}
