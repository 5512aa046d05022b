import { operationDocument, routes } from '../../rest/route-table.js';
import { apiSchemaOf } from './api-schema.js';
import { FEED_ROUTE_DOCS } from '../../google/feed-route-docs.js';
import { buildOpenApiDocument } from './document.js';

export { registerOpenApiRoutes } from './serve.js';
export { apiSchemaOf } from './api-schema.js';
export { buildOpenApiDocument } from './document.js';

/** The version of the REST contract (info.version): bump it when a route changes incompatibly. */
export const API_VERSION = '1.0.0';

/** The OpenAPI document of the gateway's REST facade over this supergraph. */
export function openApiDocument(supergraphSdl: string): Record<string, unknown> {
  return buildOpenApiDocument({
    routes,
    schema: apiSchemaOf(supergraphSdl),
    documentOf: operationDocument,
    extraRoutes: [FEED_ROUTE_DOCS],
    version: API_VERSION,
  });
}
