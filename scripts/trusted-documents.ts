// `pnpm trusted-documents`: writes gateway/trusted-documents.json, the manifest of the project's own GraphQL
// documents (REST operations and documented queries) for GRAPHQL_TRUSTED_DOCUMENTS. A test fails when it drifts.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  TRUSTED_DOCUMENTS_FILE,
  trustedDocumentsManifest,
} from '../gateway/src/graphql/trusted-documents-manifest.js';

const root = resolve(import.meta.dirname, '..');
const manifest = trustedDocumentsManifest(root);
writeFileSync(join(root, TRUSTED_DOCUMENTS_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${TRUSTED_DOCUMENTS_FILE}: ${manifest.operations.length} documents`);
