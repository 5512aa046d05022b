import { Supergraph } from '@apollo/federation-internals';
import { printSchema, type GraphQLSchema } from 'graphql';

/** The public API schema of a supergraph (what clients can query): join/link machinery and @inaccessible removed. */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}

/** The public API schema as SDL (schema/api.graphql). */
export function apiSchemaSdl(supergraphSdl: string): string {
  return printSchema(apiSchemaOf(supergraphSdl));
}
