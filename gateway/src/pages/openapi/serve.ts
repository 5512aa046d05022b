import type { FastifyInstance } from 'fastify';
import { registerRawPages } from '../raw-pages.js';
import { sendHtml, vendoredAsset } from '../vendored-asset.js';

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

/** `GET /openapi.json` (the document, no auth) and `GET /docs` (its reference page, with its script). */
export function registerOpenApiRoutes(app: FastifyInstance, document: () => Record<string, unknown>): void {
  let json: string | undefined;
  app.get('/openapi.json', (_request, reply) => {
    json ??= JSON.stringify(document());
    return reply.type('application/json; charset=utf-8').send(json);
  });
  registerRawPages(app, ['/docs', '/docs/'], (_req, res) => sendHtml(res, DOCS_PAGE));
  registerRawPages(app, ['/docs/scalar.js'], (_req, res) => scalar.send(res));
}
