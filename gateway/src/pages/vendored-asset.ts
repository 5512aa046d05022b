import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerResponse } from 'node:http';

const require = createRequire(import.meta.url);

/**
 * The browser files the developer pages (/docs, the GraphiQL explorer) load, each from an npm package that is a
 * build-time dependency only: `pnpm build` copies exactly these files into dist/vendor/, so the production tree
 * ships 5 files (about 8 MB) instead of the packages' dependency trees (Vue, React, TypeScript: over 200 MB).
 * Run from source (tsx, the tests), the same files are read from the installed packages.
 */
export const VENDORED_ASSETS = {
  // Scalar's exports do not list package.json: its main module is dist/index.js.
  'scalar.js': { entry: '@scalar/api-reference', file: 'browser/standalone.js' },
  'react.js': { entry: 'react/package.json', file: 'umd/react.production.min.js' },
  'react-dom.js': { entry: 'react-dom/package.json', file: 'umd/react-dom.production.min.js' },
  'graphiql.js': { entry: 'graphiql/package.json', file: 'graphiql.min.js' },
  'graphiql.css': { entry: 'graphiql/package.json', file: 'graphiql.min.css' },
} as const;

export type VendoredAssetName = keyof typeof VENDORED_ASSETS;

/** Where `pnpm build` puts the copies: dist/vendor/ beside the compiled module (absent when run from src/). */
const BUILT_VENDOR_DIR = join(import.meta.dirname, '..', 'vendor');

/** The file in the installed package that an asset comes from. */
export function vendoredAssetSource(name: VendoredAssetName): string {
  const { entry, file } = VENDORED_ASSETS[name];
  return join(dirname(require.resolve(entry)), file);
}

/** `pnpm build`: copies every vendored asset into `dir`. */
export function copyVendoredAssets(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(VENDORED_ASSETS) as VendoredAssetName[];
  for (const name of names) copyFileSync(vendoredAssetSource(name), join(dir, name));
  return names.length;
}

/** A vendored asset served by the gateway, read once on first use: the built copy, else the package's file. */
export function vendoredAsset(name: VendoredAssetName, contentType: string) {
  let body: Buffer | undefined;
  const read = () => {
    const built = join(BUILT_VENDOR_DIR, name);
    return readFileSync(existsSync(built) ? built : vendoredAssetSource(name));
  };
  return {
    send(res: ServerResponse) {
      body ??= read();
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
