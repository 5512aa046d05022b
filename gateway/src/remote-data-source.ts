import {
  RemoteGraphQLDataSource,
  type GraphQLDataSource,
  type GraphQLDataSourceProcessOptions,
} from '@apollo/gateway';
import { UnauthenticatedError, UnavailableError } from '@coperto/errors';
import type { GatewayContext } from './context.js';

type Fetcher = NonNullable<NonNullable<ConstructorParameters<typeof RemoteGraphQLDataSource>[0]>['fetcher']>;

/**
 * Distributed mode: a subgraph reached over HTTP. Forwards the caller's Authorization header (the subgraph
 * verifies it again) and the request id; a subgraph that refuses the token (401) is UNAUTHENTICATED, one that
 * cannot be reached is UNAVAILABLE (503), never a 500.
 *
 * Requests go through Node's own `fetch` (undici, pooled keep-alive connections) rather than Apollo's default
 * make-fetch-happen stack, whose retry, cache and agent layers cost about a quarter of the gateway's CPU in the
 * bench (bench/RESULTS.md) and add nothing here: a subgraph answer is never cached, and a retry is the client's
 * decision.
 */
export class AuthForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(config: { url?: string }) {
    super({ ...config, fetcher: fetch as unknown as Fetcher });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const ctx = context as Partial<GatewayContext> | undefined;
    if (ctx?.authorization) request.http?.headers.set('authorization', ctx.authorization);
    if (ctx?.requestId) request.http?.headers.set('x-request-id', ctx.requestId);
  }

  override async process(
    options: GraphQLDataSourceProcessOptions<GatewayContext>,
  ): ReturnType<GraphQLDataSource['process']> {
    try {
      return await super.process(options);
    } catch (error) {
      if (refusedToken(error)) throw new UnauthenticatedError('The subgraph did not accept the token');
      throw new UnavailableError(`Subgraph ${this.url ?? ''} did not answer`.trim(), { cause: error });
    }
  }
}

/** Apollo's error for a subgraph's 401 answer (RemoteGraphQLDataSource.errorFromResponse). */
function refusedToken(error: unknown): boolean {
  const extensions = (error as { extensions?: { response?: { status?: unknown } } } | null)?.extensions;
  return extensions?.response?.status === 401;
}
