import { Supergraph } from '@apollo/federation-internals';
import type { GraphQLSchema } from 'graphql';

/** The public API schema of a supergraph (what clients can query): join/link machinery and @inaccessible removed. */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}
