import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonText } from '@coperto/server-kit';
import { sendHtml, vendoredAsset } from '../browser/vendored-asset.js';

const scalar = vendoredAsset('scalar.js', 'text/javascript; charset=utf-8');

/** The reference page: Scalar's browser build (vendored at build time), no fonts, telemetry or proxy from outside. */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Coperto REST API</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: '/openapi.json',
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        agent: { disabled: true },
      });
    </script>
  </body>
</html>
`;

/**
 * `GET /openapi.json` (the document, no auth) and `GET /docs` (its reference page). Returns false for any other
 * path, so that the caller goes on.
 */
export function createOpenApiHandler(document: () => Record<string, unknown>) {
  let json: string | undefined;
  return function handleOpenApi(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === '/openapi.json') {
      json ??= JSON.stringify(document());
      sendJsonText(res, 200, json);
      return true;
    }
    if (path === '/docs' || path === '/docs/') {
      sendHtml(res, DOCS_PAGE);
      return true;
    }
    if (path === '/docs/scalar.js') {
      scalar.send(res);
      return true;
    }
    return false;
  };
}
