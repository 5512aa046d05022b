import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GraphQLError } from 'graphql';
import { QueryNotTrustedError, toGraphQLError } from '@coperto/errors';

/**
 * The persisted-query manifest (Apollo's `apollo-persisted-query-manifest` format, version 1): every document
 * the deployment runs, by the SHA-256 (hex) of its exact text. `pnpm trusted-documents` writes the project's own.
 */
export interface TrustedDocumentsManifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: Array<{ id: string; name: string; type: 'query' | 'mutation' | 'subscription'; body: string }>;
}

/** The trusted documents by hash. */
export type TrustedDocuments = ReadonlyMap<string, string>;

export function documentHash(query: string): string {
  return createHash('sha256').update(query).digest('hex');
}

/** Reads and checks a manifest (GRAPHQL_TRUSTED_DOCUMENTS): each id must be the hash of its body. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<TrustedDocumentsManifest>;
  if (manifest.format !== 'apollo-persisted-query-manifest' || manifest.version !== 1) {
    throw new Error(`${path}: not an apollo-persisted-query-manifest of version 1`);
  }
  const documents = new Map<string, string>();
  for (const operation of manifest.operations ?? []) {
    if (documentHash(operation.body) !== operation.id) {
      throw new Error(`${path}: the id of ${operation.name} is not the SHA-256 of its body`);
    }
    documents.set(operation.id, operation.body);
  }
  return documents;
}

/** What a GraphQL request names: its document text and/or the persisted-query hash of its extensions. */
export interface RequestedDocument {
  query?: unknown;
  extensions?: unknown;
}

/**
 * The trusted document a request runs: a full document whose hash is in the manifest, or the document of a
 * persisted-query hash (`extensions.persistedQuery.sha256Hash`) in it. Anything else: QueryNotTrustedError.
 */
export function trustedQuery(trusted: TrustedDocuments, request: RequestedDocument): string {
  const hash = persistedQueryHash(request.extensions);
  if (typeof request.query === 'string') {
    const own = documentHash(request.query);
    if (!trusted.has(own) || (hash !== undefined && hash !== own)) throw new QueryNotTrustedError(own);
    return request.query;
  }
  if (hash === undefined) throw new QueryNotTrustedError();
  const query = trusted.get(hash);
  if (query === undefined) throw new QueryNotTrustedError(hash);
  return query;
}

function persistedQueryHash(extensions: unknown): string | undefined {
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
  return typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash.toLowerCase() : undefined;
}

/** For graphql-ws: the QUERY_NOT_TRUSTED error of a subscribe message whose document is not trusted. */
export function untrustedErrors(trusted: TrustedDocuments, query: unknown): GraphQLError[] | undefined {
  try {
    trustedQuery(trusted, { query });
    return undefined;
  } catch (error) {
    if (error instanceof QueryNotTrustedError) return [toGraphQLError(error)];
    throw error;
  }
}
