import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type DocumentNode } from 'graphql';
import { AppError, isErrorCode, UnavailableError } from '@coperto/errors';
import type { SubgraphExecutor, SubgraphResult } from './execute-subgraph.js';

// The type of the documents `pnpm codegen` generates for the calls between subgraphs (src/generated/*-calls.ts).
export type { TypedDocumentNode } from '@graphql-typed-document-node/core';

/**
 * How one subgraph asks another through its GraphQL API (never by reading its collection), forwarding the
 * caller's token: in-process in embedded mode, HTTP in distributed mode. Errors keep their code (a NOT_FOUND
 * stays a NOT_FOUND); a subgraph that cannot be reached is UNAVAILABLE.
 *
 * The document is one `pnpm codegen` generated from the caller's src/calls/<subgraph>.graphql, validated
 * against that subgraph's schema: it carries its result and variables types, so a call needs no cast.
 */
export interface SubgraphClient {
  request<TResult, TVariables>(
    subgraph: string,
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    authorization: string,
  ): Promise<TResult>;
}

/** The query text of a document, printed once per document (the generated documents are module constants). */
const printed = new WeakMap<DocumentNode, string>();
function queryOf(document: DocumentNode): string {
  let query = printed.get(document);
  if (query === undefined) {
    query = print(document);
    printed.set(document, query);
  }
  return query;
}

export function createInProcessSubgraphClient(
  lookup: (name: string) => SubgraphExecutor | undefined,
): SubgraphClient {
  return {
    async request<TResult, TVariables>(
      name: string,
      document: TypedDocumentNode<TResult, TVariables>,
      variables: TVariables,
      authorization: string,
    ) {
      const executor = lookup(name);
      if (!executor) throw new UnavailableError(`Subgraph ${name} is not available`);
      const body = { query: queryOf(document), variables };
      return unwrap<TResult>(name, await executor(body, { authorization }));
    },
  };
}

export function createHttpSubgraphClient(
  urls: Readonly<Record<string, string>>,
  options: { timeoutMs?: number } = {},
): SubgraphClient {
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    async request<TResult, TVariables>(
      name: string,
      document: TypedDocumentNode<TResult, TVariables>,
      variables: TVariables,
      authorization: string,
    ) {
      const url = urls[name];
      if (!url) throw new UnavailableError(`Subgraph ${name} has no URL`);
      let result: SubgraphResult;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify({ query: queryOf(document), variables }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        result = (await response.json()) as SubgraphResult;
      } catch (error) {
        throw new UnavailableError(`Subgraph ${name} did not answer`, { cause: error });
      }
      return unwrap<TResult>(name, result);
    },
  };
}

/** The data of a result, typed by the document it answers (the executor checked it against the schema). */
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
