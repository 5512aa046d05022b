import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryNotTrustedError } from '@coperto/errors';
import { operations } from '../src/rest/operations.js';
import {
  TRUSTED_DOCUMENTS_FILE,
  trustedDocumentsManifest,
} from '../src/graphql/trusted-documents-manifest.js';
import { documentHash, loadTrustedDocuments, trustedQuery } from '../src/graphql/trusted-documents.js';

const root = resolve(import.meta.dirname, '../..');

describe('the shipped trusted-documents manifest', () => {
  it(`is up to date (run pnpm trusted-documents when this fails)`, () => {
    const shipped = JSON.parse(readFileSync(join(root, TRUSTED_DOCUMENTS_FILE), 'utf8'));
    expect(shipped).toEqual(trustedDocumentsManifest(root));
  });

  it('holds every REST operation and the documented back-office documents, and loads', () => {
    const trusted = loadTrustedDocuments(join(root, TRUSTED_DOCUMENTS_FILE));
    for (const body of Object.values(operations)) expect(trusted.get(documentHash(body))).toBe(body);
    const names = trustedDocumentsManifest(root).operations.map((o) => o.name);
    expect(names).toContain('FloorOverview'); // docs/security.md
    expect(names).toContain('docs/subscriptions.md#1');
  });
});

describe('trustedQuery', () => {
  const query = '{ sale { id } }';
  const trusted = new Map([[documentHash(query), query]]);
  const refused = (request: Parameters<typeof trustedQuery>[1]) => () => trustedQuery(trusted, request);

  it('accepts a full document in the manifest, or a persisted-query hash of one', () => {
    expect(trustedQuery(trusted, { query })).toBe(query);
    const persistedQuery = { version: 1, sha256Hash: documentHash(query) };
    expect(trustedQuery(trusted, { extensions: { persistedQuery } })).toBe(query);
    expect(trustedQuery(trusted, { query, extensions: { persistedQuery } })).toBe(query);
  });

  it('refuses any other document, an unknown hash, a hash that is not the document, and nothing at all', () => {
    expect(refused({ query: '{ sale { id codice } }' })).toThrow(QueryNotTrustedError);
    expect(refused({ query: `${query} ` })).toThrow(QueryNotTrustedError); // the exact text is hashed
    const unknown = { version: 1, sha256Hash: documentHash('{ tavoli { id } }') };
    expect(refused({ extensions: { persistedQuery: unknown } })).toThrow(QueryNotTrustedError);
    expect(refused({ query, extensions: { persistedQuery: unknown } })).toThrow(QueryNotTrustedError);
    expect(refused({})).toThrow(QueryNotTrustedError);
  });

  it('loadTrustedDocuments refuses a manifest whose id is not the hash of its body', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coperto-trusted-'));
    try {
      const file = join(dir, 'manifest.json');
      const operation = { id: documentHash('{ x }'), name: 'X', type: 'query', body: query };
      writeFileSync(
        file,
        JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [operation] }),
      );
      expect(() => loadTrustedDocuments(file)).toThrow(/not the SHA-256 of its body/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
