import { parse } from 'graphql';
import type { TypedDocumentNode } from '@coperto/server-kit';

/**
 * A test's own GraphQL document for the in-process subgraph client, with the result type the test expects (the
 * subgraphs' own calls are typed by `pnpm codegen`; a test drives the subgraphs with ad hoc queries).
 */
export function testDocument<TResult = unknown>(
  query: string,
): TypedDocumentNode<TResult, Record<string, unknown>> {
  return parse(query);
}
