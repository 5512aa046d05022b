import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayContext } from '../graphql/context.js';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** What one subgraph fetch resolves to: the response itself for a lone caller, its JSON text when shared. */
type Outcome = { response: SubgraphResponse } | { text: string };

interface Flight {
  callers: number;
  outcome: Promise<Outcome>;
}

/**
 * The key under which two subgraph fetches may share one execution, or undefined when they never may: only the
 * fetches of a query (never of a mutation, whose fetches must each run), only with a caller's token, and keyed by
 * that token's exact text, so nothing is ever shared across tokens, let alone tenants.
 */
export function sharingKey(options: GraphQLDataSourceProcessOptions<GatewayContext>): string | undefined {
  // Only fetches of a client's operation (@apollo/gateway does not export its request-kind enum).
  if (!('incomingRequestContext' in options)) return undefined;
  if (options.incomingRequestContext.operation?.operation !== 'query') return undefined;
  const { query, variables, operationName } = options.request;
  if (!query || /^\s*mutation\b/.test(query)) return undefined;
  const authorization = (options.context as Partial<GatewayContext> | undefined)?.authorization;
  if (!authorization) return undefined;
  return `${authorization}\n${operationName ?? ''}\n${query}\n${JSON.stringify(variables ?? {})}`;
}

/**
 * Coalesces identical subgraph fetches that are in flight at the same moment (fifty table screens of one
 * restaurant asking the same thing): the first one runs, the others wait for its answer. A response handed to
 * more than one query plan is copied for each (Apollo Gateway merges entity results into the objects it receives),
 * through one JSON snapshot taken before any plan resumes; a lone caller gets the response as it is. Once the
 * fetch has answered, the next identical fetch runs again: nothing is cached.
 */
export function dedupeInFlight(
  source: GraphQLDataSource<GatewayContext>,
  onShared?: () => void,
): GraphQLDataSource<GatewayContext> {
  const inFlight = new Map<string, Flight>();
  return {
    process(options) {
      const key = sharingKey(options);
      if (key === undefined) return source.process(options);
      let flight = inFlight.get(key);
      if (flight) {
        flight.callers += 1;
        onShared?.();
      } else {
        const started: Flight = { callers: 1, outcome: Promise.resolve({ text: 'null' }) };
        started.outcome = source.process(options).then(
          (response): Outcome => {
            inFlight.delete(key);
            if (started.callers === 1) return { response };
            const { data, errors, extensions } = response;
            return { text: JSON.stringify({ data, errors, extensions }) };
          },
          (error: unknown) => {
            inFlight.delete(key);
            throw error;
          },
        );
        inFlight.set(key, started);
        flight = started;
      }
      return flight.outcome.then((outcome) =>
        'response' in outcome ? outcome.response : (JSON.parse(outcome.text) as SubgraphResponse),
      );
    },
  };
}
