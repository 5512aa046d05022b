import type { OperationName } from './operations.js';
import type { RestRequest } from './request-input.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented REST path = one named GraphQL operation run in-process through the gateway. */
export interface RestRoute {
  method: HttpMethod;
  /** Path pattern; `:name` segments become `params.name`. Static segments win over parameters. */
  path: string;
  operation: OperationName;
  variables: (req: RestRequest) => Record<string, unknown>;
  /** The response body: the operation's root field. */
  field: string;
  /** Success status (default 200). */
  status?: number;
  /** A null result means the id does not exist (in this tenant): 404 for this entity. */
  notFound?: string;
  /**
   * Serve repeated reads from the cache: answers are kept under the read scope's version (the owning
   * subgraph replaces it on every write, before acknowledging), for at most `ttlSeconds`.
   */
  cache?: { scope: string; ttlSeconds: number };
}
