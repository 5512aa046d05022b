import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { registerRawPages } from './raw-pages.js';

/** The content types of the files the pages are made of, by extension; another file is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A file of a page, read once. */
export interface PageAsset {
  body: Buffer;
  type: string;
}

/** Whether a page serves a file of this name (its extension has a content type). */
export const isPageFile = (name: string): boolean => extname(name) in CONTENT_TYPES;

/** The file, read now, with the content type of its extension. */
export function readPageAsset(file: string): PageAsset {
  return { body: readFileSync(file), type: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
}

/**
 * `GET` and `HEAD` of each asset by its URL path, answered from memory: never cached without asking again, never
 * sniffed, with the content security policy `policyOf` gives the path (and any further `headers`).
 */
export function registerPageAssets(
  app: FastifyInstance,
  assets: ReadonlyMap<string, PageAsset>,
  policyOf: (path: string) => string,
  headers: Readonly<Record<string, string>> = {},
): void {
  registerRawPages(app, assets.keys(), (req, res, path) => {
    const asset = assets.get(path)!;
    res.writeHead(200, {
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...headers,
      'content-security-policy': policyOf(path),
    });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  });
}
