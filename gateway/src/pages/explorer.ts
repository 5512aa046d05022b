import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerRawPages } from './raw-pages.js';
import { sendHtml, vendoredAsset } from './vendored-asset.js';

/** GraphiQL 3 and its React 18 UMD builds, vendored at build time (works offline, no CDN). */
const ASSETS: Record<string, ReturnType<typeof vendoredAsset>> = {
  '/explorer/react.js': vendoredAsset('react.js', 'text/javascript'),
  '/explorer/react-dom.js': vendoredAsset('react-dom.js', 'text/javascript'),
  '/explorer/graphiql.js': vendoredAsset('graphiql.js', 'text/javascript'),
  '/explorer/graphiql.css': vendoredAsset('graphiql.css', 'text/css'),
};

const DEFAULT_QUERY = `# Paste your token into Headers below: {"Authorization": "Bearer <jwt>"} (pnpm token --tenant demo)
query Tables {
  tavoli {
    id
    name
    seats
    status
    lock { deviceId operatorName expiresAt }
  }
}
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Coperto GraphQL explorer</title>
    <link rel="stylesheet" href="/explorer/graphiql.css" />
    <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  </head>
  <body>
    <div id="graphiql">Loading…</div>
    <script src="/explorer/react.js"></script>
    <script src="/explorer/react-dom.js"></script>
    <script src="/explorer/graphiql.js"></script>
    <script>
      const fetcher = GraphiQL.createFetcher({ url: location.origin + '/graphql' });
      ReactDOM.createRoot(document.getElementById('graphiql')).render(
        React.createElement(GraphiQL, {
          fetcher,
          defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
          defaultHeaders: '{\\n  "Authorization": "Bearer "\\n}',
          defaultEditorToolsVisibility: 'headers',
          isHeadersEditorEnabled: true,
          shouldPersistHeaders: false,
        }),
      );
    </script>
  </body>
</html>
`;

/** A browser asking for a page (not a GraphQL GET request, which carries `?query=`). */
export function wantsExplorerPage(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const search = (req.url ?? '').split('?', 2)[1] ?? '';
  if (new URLSearchParams(search).has('query')) return false;
  return (req.headers.accept ?? '').split(',').some((type) => type.trim().startsWith('text/html'));
}

/**
 * The GraphiQL explorer when `enabled`: its assets under `/explorer/`, and the answer for a browser asking
 * for the page on `GET /graphql` (true when it sent the page, so that `/graphql` goes no further).
 */
export function registerExplorer(app: FastifyInstance, enabled: boolean) {
  if (enabled) registerRawPages(app, Object.keys(ASSETS), (_req, res, path) => ASSETS[path]!.send(res));
  return function answerExplorerPage(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!enabled || !wantsExplorerPage(request.raw)) return false;
    reply.hijack();
    sendHtml(reply.raw, PAGE);
    return true;
  };
}
