import { AppError, isErrorCode, UnavailableError } from '@coperto/errors';
import type { SubgraphExecutor, SubgraphResult } from './execute-subgraph.js';

/**
 * How one subgraph asks another through its GraphQL API (never by reading its collection), forwarding the
 * caller's token: in-process in embedded mode, HTTP in distributed mode. Errors keep their code (a NOT_FOUND
 * stays a NOT_FOUND); a subgraph that cannot be reached is UNAVAILABLE.
 */
export interface SubgraphClient {
  request<T>(
    subgraph: string,
    query: string,
    variables: Record<string, unknown>,
    authorization: string,
  ): Promise<T>;
}

export function createInProcessSubgraphClient(
  lookup: (name: string) => SubgraphExecutor | undefined,
): SubgraphClient {
  return {
    async request<T>(name: string, query: string, variables: Record<string, unknown>, authorization: string) {
      const executor = lookup(name);
      if (!executor) throw new UnavailableError(`Subgraph ${name} is not available`);
      return unwrap<T>(name, await executor({ query, variables }, { authorization }));
    },
  };
}

export function createHttpSubgraphClient(
  urls: Readonly<Record<string, string>>,
  options: { timeoutMs?: number } = {},
): SubgraphClient {
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    async request<T>(name: string, query: string, variables: Record<string, unknown>, authorization: string) {
      const url = urls[name];
      if (!url) throw new UnavailableError(`Subgraph ${name} has no URL`);
      let result: SubgraphResult;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify({ query, variables }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        result = (await response.json()) as SubgraphResult;
      } catch (error) {
        throw new UnavailableError(`Subgraph ${name} did not answer`, { cause: error });
      }
      return unwrap<T>(name, result);
    },
  };
}

function unwrap<T>(name: string, result: SubgraphResult): T {
  const first = result.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    if (isErrorCode(code) && code !== 'INTERNAL') {
      throw new AppError(code, first.message, first.extensions?.details);
    }
    // An internal error in the other subgraph is a bug there; it stays an internal error here.
    throw new Error(`Subgraph ${name} failed: ${first.message}`);
  }
  return result.data as T;
}
