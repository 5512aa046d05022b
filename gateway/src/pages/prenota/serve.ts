import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { isPageFile, readPageAsset, registerPageAssets, type PageAsset } from '../page-assets.js';

/**
 * The guests' pages (docs/booking-page.md): `GET /prenota` books with a channel key (`#key=` in the URL
 * fragment), `GET /prenota/gestisci` shows, confirms, changes or cancels one booking with its guest token
 * (`#token=`). Plain HTML, CSS and browser modules in ./assets/ (copied beside the compiled module by
 * `pnpm build`), served from this origin only: no CDN. One exception: the manage page's payment step loads Stripe.js
 * from js.stripe.com, as Stripe requires (never bundled or self-hosted), and only when a guarantee is due.
 */
const ASSET_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/** URL prefix of the pages' scripts and styles. */
export const BOOKING_ASSET_PREFIX = '/prenota/assets/';

/** The two pages, each an HTML file of ./assets/. */
const PAGES: Record<string, string> = {
  '/prenota': 'booking.html',
  '/prenota/gestisci': 'manage.html',
};

/** Same origin only: the REST facade is all the pages call; no inline code, never framed. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The manage page's: the same, plus what Stripe's Payment Element needs (Stripe's documented policy): its script
 * and frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com, and calls to api.stripe.com.
 */
export const MANAGE_PAGE_POLICY = [
  "default-src 'self'",
  "connect-src 'self' https://api.stripe.com",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
  'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The policy of each page (its assets carry the strict one: a policy applies to documents). */
const POLICIES: Record<string, string> = { '/prenota/gestisci': MANAGE_PAGE_POLICY };

/** URL path → file, read once: the two pages and every script and style of ./assets/. */
function loadBookingAssets(dir = ASSET_DIR): Map<string, PageAsset> {
  const assets = new Map<string, PageAsset>();
  const add = (path: string, name: string) => assets.set(path, readPageAsset(join(dir, name)));
  for (const [path, name] of Object.entries(PAGES)) add(path, name);
  for (const name of readdirSync(dir)) {
    if (extname(name) !== '.html' && isPageFile(name)) add(BOOKING_ASSET_PREFIX + name, name);
  }
  return assets;
}

/** `GET /prenota`, `GET /prenota/gestisci` and their assets (`HEAD` too). */
export function registerBookingPages(app: FastifyInstance): void {
  registerPageAssets(app, loadBookingAssets(), (path) => POLICIES[path] ?? CONTENT_SECURITY_POLICY, {
    // The key and the guest token live in the fragment, which no Referer carries; nothing else leaks either.
    'referrer-policy': 'no-referrer',
  });
}
