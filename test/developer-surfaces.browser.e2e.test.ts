// The developer pages in a real browser (Debian's chromium driven by playwright-core), embedded mode: the API
// reference at /docs and GraphiQL at /graphql load nothing from outside the machine, GraphiQL runs a query
// with the token typed into its headers, and a page of another origin calls the REST API as CORS_ORIGINS
// allows or refuses.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { startEmbedded, type Stack } from './support/stack.js';

/** A CodeMirror 5 editor of GraphiQL, reached from the page (the test's tsconfig has no DOM types). */
interface CodeMirrorHost {
  CodeMirror: { getValue(): string };
}
interface BrowserDocument {
  querySelector(selector: string): CodeMirrorHost | null;
}

/** A page of another origin: a tiny web server on a loopback port that serves one empty page. */
async function startOtherOrigin(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>another app</title></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What a page's `fetch` of the gateway came to: the answer, or the error the browser threw. */
type Outcome = { status: number; requestId: string | null; body: any } | { error: string };

/** Calls the gateway from inside the page, with the token (a non-simple header: the browser sends a preflight). */
function callFromPage(
  page: Page,
  url: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
) {
  return page.evaluate(
    async ({ url, token, method, body }) => {
      try {
        const res = await fetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, requestId: res.headers.get('x-request-id'), body: await res.json() };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, token, method: init.method ?? 'GET', body: init.body },
  ) as Promise<Outcome>;
}

/**
 * Records every request the context's pages make; one to another origin than `origin` is recorded, then refused
 * (so nothing leaves the machine even when the test fails). Returns the URLs requested so far.
 */
async function recordRequests(context: BrowserContext, origin: string): Promise<() => string[]> {
  const requested: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    return new URL(url).origin === origin ? route.continue() : route.abort('blockedbyclient');
  });
  context.on('request', (request) => {
    if (!requested.includes(request.url())) requested.push(request.url());
  });
  return () => [...requested];
}

/** The requested URLs (http, https, ws, wss) that are not to `origin`. */
const elsewhere = (urls: string[], origin: string) =>
  urls.filter((url) => /^(https?|wss?):/.test(url) && new URL(url).origin !== origin);

/** Preflights the gateway answered on `/api/…` so far (its Prometheus counter). */
async function preflightsAnswered(stack: Stack): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{') && line.includes('method="OPTIONS"'))
    .filter((line) => line.includes('route="/api/*"') && line.includes('status="204"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('developer surfaces in a browser (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let allowed: { origin: string; server: Server };
  let refused: { origin: string; server: Server };
  let token: string;
  let table: { id: string; name: string };

  beforeAll(async () => {
    allowed = await startOtherOrigin();
    refused = await startOtherOrigin();
    stack = await startEmbedded({ CORS_ORIGINS: `http://waiter.example, ${allowed.origin}` });
    token = await mintToken({ tenantId: newTenantId() });
    const created = await stack.api('POST', '/api/tavoli', {
      token,
      body: { name: `T-${Date.now().toString(36)}`, seats: 4 },
    });
    expect(created.status).toBe(201);
    table = created.body;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    for (const other of [allowed, refused]) await new Promise((r) => other?.server.close(r));
  });

  /** A fresh browser context, closed after `use`. */
  async function withContext<T>(use: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      return await use(context, await context.newPage());
    } finally {
      await context.close();
    }
  }

  it('renders the API reference at /docs with every request to the gateway itself', async () => {
    await withContext(async (context, page) => {
      const gateway = new URL(stack.baseUrl).origin;
      const requested = await recordRequests(context, gateway);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));

      await page.goto(`${stack.baseUrl}/docs`);
      await page.getByRole('heading', { name: 'Coperto REST API' }).first().waitFor(WAIT);
      await page.getByText('List the tables').first().waitFor(WAIT);
      await page.waitForLoadState('networkidle');

      expect(elsewhere(requested(), gateway)).toEqual([]);
      expect(requested()).toEqual(
        expect.arrayContaining([`${gateway}/docs`, `${gateway}/docs/scalar.js`, `${gateway}/openapi.json`]),
      );
      expect(errors).toEqual([]);
    });
  });

  it('opens GraphiQL on /graphql and runs a query with the token typed into its headers', async () => {
    await withContext(async (context, page) => {
      const gateway = new URL(stack.baseUrl).origin;
      const requested = await recordRequests(context, gateway);
      await page.goto(`${stack.baseUrl}/graphql`);
      await page.locator('.graphiql-container').waitFor(WAIT);

      // The headers editor is open by default (the variables editor beside it hidden); replace its template.
      await page.locator('.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden)').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${token}` }));
      await page.locator('.graphiql-query-editor .CodeMirror').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.insertText('query Tables { tavoli { id name seats } }');
      await page.locator('.graphiql-execute-button').click();

      await page.locator('.graphiql-response', { hasText: table.name }).waitFor(WAIT);
      const shown = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: BrowserDocument }).document;
        return doc.querySelector('.graphiql-response .CodeMirror')!.CodeMirror.getValue();
      });
      const result = JSON.parse(shown);
      expect(result.errors).toBeUndefined();
      expect(result.data.tavoli).toEqual([{ id: table.id, name: table.name, seats: 4 }]);
      // Offline too: the page, React, GraphiQL and the queries all from the gateway.
      expect(elsewhere(requested(), gateway)).toEqual([]);
      expect(requested()).toEqual(expect.arrayContaining([`${gateway}/explorer/graphiql.js`]));
    });
  });

  it('lets a page of an origin in CORS_ORIGINS call /api with a token, after a preflight', async () => {
    const before = await preflightsAnswered(stack);
    await withContext(async (_context, page) => {
      await page.goto(`${allowed.origin}/`);
      const list = await callFromPage(page, `${stack.baseUrl}/api/tavoli`, token);
      expect(list).toMatchObject({ status: 200, body: [{ id: table.id, name: table.name }] });
      // The exposed headers are readable by the page.
      expect((list as { requestId: string | null }).requestId).toMatch(/^[0-9a-f-]{36}$/);

      const put = await callFromPage(page, `${stack.baseUrl}/api/tavoli/${table.id}/status`, token, {
        method: 'PUT',
        body: { status: 'occupied' },
      });
      expect(put).toMatchObject({ status: 200, body: { id: table.id, status: 'occupied' } });
    });
    expect(await preflightsAnswered(stack)).toBeGreaterThan(before);
    expect((await stack.api('GET', `/api/tavoli/${table.id}`, { token })).body.status).toBe('occupied');
  });

  it('has the browser block a page of an origin not in CORS_ORIGINS', async () => {
    await withContext(async (_context, page) => {
      const console: string[] = [];
      page.on('console', (message) => console.push(message.text()));
      await page.goto(`${refused.origin}/`);
      const list = await callFromPage(page, `${stack.baseUrl}/api/tavoli`, token);
      expect(list).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });

      // The preflight is refused, so the write itself is never sent.
      const put = await callFromPage(page, `${stack.baseUrl}/api/tavoli/${table.id}/status`, token, {
        method: 'PUT',
        body: { status: 'dirty' },
      });
      expect(put).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
      expect(console.join('\n')).toMatch(/blocked by CORS policy/);
    });
    expect((await stack.api('GET', `/api/tavoli/${table.id}`, { token })).body.status).toBe('occupied');
  });
});
