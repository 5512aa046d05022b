// Build-time only (pnpm trusted-documents and its drift test): reads the documentation under `root`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getOperationAST, parse } from 'graphql';
import { operations } from '../rest/operations.js';
import { documentHash, type TrustedDocumentsManifest } from './trusted-documents.js';

/** Where the project's manifest lives (GRAPHQL_TRUSTED_DOCUMENTS=gateway/trusted-documents.json). */
export const TRUSTED_DOCUMENTS_FILE = 'gateway/trusted-documents.json';

/** Where the GraphQL documents clients copy or send are: ```graphql blocks, and `query:` strings (graphql-ws, the floor plan). */
const DOCUMENTED = [
  'README.md',
  'docs/security.md',
  'docs/subscriptions.md',
  // The floor plan's own queries (guests and guarantees beside the bookings).
  'gateway/public/floor-plan/host-queries.js',
];

/**
 * The trusted documents of the project: every REST operation (gateway/src/rest/operations) and every
 * documented back-office query or subscription, by the SHA-256 of its exact text, sorted by name.
 */
export function trustedDocumentsManifest(root: string): TrustedDocumentsManifest {
  const documents = new Map<string, string>(Object.entries(operations));
  for (const file of DOCUMENTED) {
    const text = readFileSync(join(root, file), 'utf8');
    const found = [
      ...[...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim()),
      ...[...text.matchAll(/query: `([^`]+)`/g)].map((m) => m[1]!),
    ];
    found.forEach((body, i) => {
      const name = getOperationAST(parse(body))?.name?.value ?? `${file}#${i + 1}`;
      if (!documents.has(name)) documents.set(name, body);
    });
  }
  return {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [...documents.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, body]) => ({
        id: documentHash(body),
        name,
        type: getOperationAST(parse(body))!.operation,
        body,
      })),
  };
}
