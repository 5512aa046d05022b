import { createRequire } from 'node:module';
import { operationDocument, routes } from '../rest/routes.js';
import { apiSchemaOf } from './api-schema.js';
import { buildOpenApiDocument } from './document.js';

export { createOpenApiHandler } from './serve.js';
export { apiSchemaOf } from './api-schema.js';
export { openApiPath } from './document.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The OpenAPI document of the gateway's REST facade over this supergraph. */
export function openApiDocument(supergraphSdl: string): Record<string, unknown> {
  return buildOpenApiDocument({
    routes,
    schema: apiSchemaOf(supergraphSdl),
    documentOf: operationDocument,
    version,
  });
}
