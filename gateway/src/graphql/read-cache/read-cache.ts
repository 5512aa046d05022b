import type { GraphQLSchema } from 'graphql';
import type { Viewer } from '@coperto/auth';
import { readScopesKey, type Cache, type TenantCache } from '@coperto/cache';
import type { BoundedStats } from '@coperto/metrics';
import { createCountedLru } from '../../host/counted-lru.js';
import { createEncodedAnswers } from '../../rest/encoded-answers.js';
import { readScopesOf } from './read-scopes-of.js';

/** How many documents' analyses (cacheable or not, and their scopes) the gateway keeps. */
const ANALYSES_KEPT = 1000;

export interface GraphQLReadCacheOptions {
  /** The public API schema the documents are checked against. */
  schema: GraphQLSchema;
  cache: Cache;
  /** The longest an answer is kept (a write to one of its scopes replaces it at once). */
  ttlSeconds: number;
  /** The parse bound of the document analysis (GRAPHQL_MAX_TOKENS). */
  maxTokens: number;
  /** Documents whose analysis is kept; the least recently used goes first. Default ANALYSES_KEPT. */
  maxAnalyses?: number;
}

/** What a `/graphql` POST asks: its JSON body and the headers its answer depends on. */
export interface ReadRequest {
  /** The Content-Type header: only `application/json` bodies are what Apollo Server runs. */
  contentType: string | undefined;
  body: unknown;
  /** The request's Accept header: Apollo Server picks the answer's media type from it. */
  accept: string | undefined;
  viewer: Viewer;
}

/** A cached answer as it goes out: Apollo Server's head for it, and its bytes. */
export interface CachedAnswer {
  contentType: string;
  cacheControl: string | null;
  body: Buffer;
}

/** Where a miss stores its answer once Apollo Server has produced it. */
export interface ReadFill {
  tenantCache: TenantCache;
  key: string;
}

export type ReadLookup = { kind: 'hit'; answer: CachedAnswer } | { kind: 'miss'; fill: ReadFill };

/** What Apollo Server answered a miss with. */
export interface AnsweredRead {
  status: number;
  contentType: string | undefined;
  cacheControl: string | undefined;
  body: string;
}

export interface GraphQLReadCache {
  /** null: the request is not a cacheable query (it runs through Apollo Server as ever, nothing stored). */
  lookup(request: ReadRequest): Promise<ReadLookup | null>;
  /** Stores a miss's answer if it is a complete success (200, `data` only: no errors, no extensions). */
  fill(fill: ReadFill, answered: AnsweredRead): Promise<void>;
  /** Its memories against their bounds: the documents' analyses, the encoded answers. */
  bounded(): { graphql_read_analyses: BoundedStats; graphql_encoded_answers: BoundedStats };
}

/**
 * The gateway's read cache of `/graphql` queries over rooms and tables (docs/architecture.md, step 1 of a request):
 * the same versioned read scopes as the REST table reads. An answer is stored per tenant under the versions of
 * the scopes its fields read (cacheable-fields.ts), which the owning subgraph replaces before it acknowledges
 * any write, so no answer older than an acknowledged write is ever served. The key also holds the document,
 * the operation name, the variables, the Accept header and the caller's roles: two requests share an answer
 * only if Apollo Server would have answered them alike.
 */
export function createGraphQLReadCache(options: GraphQLReadCacheOptions): GraphQLReadCache {
  const maxAnalyses = options.maxAnalyses ?? ANALYSES_KEPT;
  const analyses = createCountedLru<{ scopes: readonly string[] | null }>(maxAnalyses);
  const encoded = createEncodedAnswers();
  const scopesOf = (query: string, operationName: string | undefined) => {
    const id = `${operationName ?? ''}\n${query}`;
    const known = analyses.get(id);
    if (known) return known.scopes;
    const scopes = readScopesOf(options.schema, query, operationName, options.maxTokens);
    analyses.set(id, { scopes });
    return scopes;
  };

  return {
    bounded: () => ({
      graphql_read_analyses: analyses.stats(),
      graphql_encoded_answers: encoded.stats(),
    }),
    async lookup({ contentType, body, accept, viewer }) {
      if (!isJsonMediaType(contentType)) return null;
      const request = readRequestOf(body);
      if (!request) return null;
      const scopes = scopesOf(request.query, request.operationName);
      if (!scopes) return null;
      const tenantCache = options.cache.forTenant(viewer.tenantId);
      const key = await readScopesKey(
        tenantCache,
        scopes,
        [
          'graphql',
          `${viewer.isAdmin ? 'admin' : ''}:${[...viewer.roles].sort().join(',')}`,
          accept ?? '',
          request.operationName ?? '',
          request.variablesJson,
          request.query,
        ].join('\n'),
      );
      const stored = await tenantCache.getJsonText(key);
      const answer =
        stored === null
          ? null
          : cachedAnswerOf(stored, (text) => encoded(`${viewer.tenantId}\n${key}`, text));
      return answer ? { kind: 'hit', answer } : { kind: 'miss', fill: { tenantCache, key } };
    },

    async fill({ tenantCache, key }, answered) {
      if (answered.status !== 200 || !answered.contentType || !isCompleteSuccess(answered.body)) return;
      await tenantCache.setJsonText(
        key,
        `${answered.contentType}\n${answered.cacheControl ?? ''}\n${answered.body}`,
        options.ttlSeconds,
      );
    },
  };
}

/** The query, operation name and variables of a POST body, or null when it is not a plain query request. */
function readRequestOf(
  body: unknown,
): { query: string; operationName: string | undefined; variablesJson: string } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { query, operationName, variables, extensions } = body as Record<string, unknown>;
  if (typeof query !== 'string' || !onlyPersistedQuery(extensions)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== 'object' || Array.isArray(variables))
  )
    return null;
  return {
    query,
    operationName: (operationName as string | null | undefined) ?? undefined,
    variablesJson: JSON.stringify(variables ?? {}),
  };
}

/**
 * No extensions, or only a persisted-query hash next to the full text (Apollo Server checks that the hash is
 * the text's; a mismatch is an error answer, which is never stored).
 */
function onlyPersistedQuery(extensions: unknown): boolean {
  if (extensions === undefined || extensions === null) return true;
  if (typeof extensions !== 'object' || Array.isArray(extensions)) return false;
  const keys = Object.keys(extensions);
  return keys.length === 0 || (keys.length === 1 && keys[0] === 'persistedQuery');
}

/** `application/json`, with or without parameters, as Apollo Server requires of a POST. */
function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/** A stored entry: `content-type \n cache-control \n body`. */
function cachedAnswerOf(stored: string, bytesOf: (body: string) => Buffer): CachedAnswer | null {
  const first = stored.indexOf('\n');
  const second = first < 0 ? -1 : stored.indexOf('\n', first + 1);
  if (second < 0) return null;
  const cacheControl = stored.slice(first + 1, second);
  return {
    contentType: stored.slice(0, first),
    cacheControl: cacheControl === '' ? null : cacheControl,
    body: bytesOf(stored.slice(second + 1)),
  };
}

/** `{"data": {...}}` and nothing else: no errors (not even partial ones), no extensions. */
function isCompleteSuccess(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return false;
    const keys = Object.keys(parsed);
    const data = (parsed as { data?: unknown }).data;
    return keys.length === 1 && keys[0] === 'data' && typeof data === 'object' && data !== null;
  } catch {
    return false;
  }
}
