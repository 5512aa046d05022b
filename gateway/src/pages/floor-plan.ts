import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { isPageFile, readPageAsset, registerPageAssets, type PageAsset } from './page-assets.js';

/** The page's files: gateway/public/floor-plan (two levels up from src/pages/ and dist/pages/ alike). */
const PAGE_DIR = fileURLToPath(new URL('../../public/floor-plan/', import.meta.url));
/** URL prefix of the page's assets; `/` itself serves index.html. */
export const FLOOR_PLAN_PREFIX = '/floor-plan/';

/** The page talks to this origin only: its REST, GraphQL and graphql-ws endpoints; no CDN, no inline code. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws: wss:",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** URL path → file, read once: the page's own files plus graphql-ws's and Chart.js's browser builds from node_modules. */
function loadFloorPlanAssets(): Map<string, PageAsset> {
  const assets = new Map<string, PageAsset>();
  const add = (path: string, file: string) => assets.set(path, readPageAsset(file));
  add('/', join(PAGE_DIR, 'index.html'));
  for (const name of readdirSync(PAGE_DIR)) {
    if (isPageFile(name)) add(FLOOR_PLAN_PREFIX + name, join(PAGE_DIR, name));
  }
  // graphql-ws resolves to dist/index.cjs for require(); its UMD browser build sits in umd/.
  const graphqlWsDir = dirname(dirname(createRequire(import.meta.url).resolve('graphql-ws')));
  add(`${FLOOR_PLAN_PREFIX}vendor/graphql-ws.js`, join(graphqlWsDir, 'umd', 'graphql-ws.min.js'));
  // Chart.js (the report view) resolves to dist/chart.cjs; its UMD build, defining the global Chart, sits beside it.
  const chartJsDir = dirname(createRequire(import.meta.url).resolve('chart.js'));
  add(`${FLOOR_PLAN_PREFIX}vendor/chart.js`, join(chartJsDir, 'chart.umd.min.js'));
  return assets;
}

/** `GET /` (the live floor plan) and its assets under /floor-plan/ (`HEAD` too). */
export function registerFloorPlan(app: FastifyInstance): void {
  registerPageAssets(app, loadFloorPlanAssets(), () => CONTENT_SECURITY_POLICY);
}
