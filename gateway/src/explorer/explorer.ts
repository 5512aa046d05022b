import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHtml, vendoredAsset } from '../browser/vendored-asset.js';

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
export function wantsExplorerPage(req: IncomingMessage, url: URL): boolean {
  if (req.method !== 'GET' || url.searchParams.has('query')) return false;
  return (req.headers.accept ?? '').split(',').some((type) => type.trim().startsWith('text/html'));
}

/**
 * The GraphiQL explorer: the page for browsers on `GET /graphql` and its assets under `/explorer/`. Returns
 * false when the request is not for it (or the explorer is off), so that the caller goes on.
 */
export function createExplorerHandler(enabled: boolean) {
  return function handleExplorer(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (!enabled || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    if (url.pathname === '/graphql' && wantsExplorerPage(req, url)) {
      sendHtml(res, PAGE);
      return true;
    }
    const asset = ASSETS[url.pathname];
    if (!asset) return false;
    asset.send(res);
    return true;
  };
}
