import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerResponse } from 'node:http';

const require = createRequire(import.meta.url);

/**
 * A browser asset shipped inside an installed npm package (no CDN): `entry` is what the package resolves to
 * (its `package.json` or main module), `file` the path from that file's directory. Read once, on first use.
 */
export function packageAsset(entry: string, file: string, contentType: string) {
  let body: Buffer | undefined;
  return {
    send(res: ServerResponse) {
      body ??= readFileSync(join(dirname(require.resolve(entry)), file));
      res.writeHead(200, {
        'content-type': contentType,
        'content-length': body.length,
        'cache-control': 'public, max-age=3600',
      });
      res.end(body);
    },
  };
}

/** Sends a small HTML page. */
export function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
  });
  res.end(html);
}
