import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

/** The README's REST table (`| GET / PATCH | \`/api/tavoli/:id\` | ...`) → `get /api/tavoli/{id}`, `patch ...`. */
function readmeRoutes(): string[] {
  const rows = [
    ...README.matchAll(/^\| ((?:GET|POST|PUT|PATCH|DELETE)(?: \/ [A-Z]+)*) \| `(\/api\/[^`?]+)[^`]*` \|/gm),
  ];
  return rows.flatMap(([, methods, path]) =>
    methods!.split(' / ').map((m) => `${m.toLowerCase()} ${path!.replace(/:(\w+)/g, '{$1}')}`),
  );
}

describe.each(MODES)('OpenAPI document and reference (%s mode)', (mode) => {
  let stack: Stack;
  let doc: any;

  beforeAll(async () => {
    stack = await startStack(mode);
    const res = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = await res.json();
  });
  afterAll(async () => stack?.close());

  it('serves a valid OpenAPI 3.1 document without a token', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('documents every route of the README, and every documented route exists', async () => {
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const inReadme = readmeRoutes();
    expect(inReadme.length).toBeGreaterThan(20);
    expect(documented).toEqual(expect.arrayContaining(inReadme));
    // Without a token every route that exists answers 401 (an unknown one would be 404, another method 405).
    for (const route of documented) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await stack.api(method.toUpperCase(), path.replace(/\{\w+\}/g, 'some-id'));
      expect(res.status, route).toBe(401);
      expect(res.body.error.code, route).toBe('UNAUTHENTICATED');
    }
  });

  it('types bodies from the GraphQL operations, names which Italian/English twin wins, lists the errors', () => {
    const create = doc.paths['/api/tavoli'].post;
    const body = create.requestBody.content['application/json'].schema.properties;
    // The ranges the service enforces are in the document (an explicit null seats is refused too).
    expect(body.seats).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(body.posizione.type).toEqual(['string', 'null']);
    expect(body.capacita.description).toMatch(/`seats` wins/);
    const lock = doc.paths['/api/tavoli/{id}/lock'].post;
    // The route's own conflict, and WRITE_CONFLICT, which any write may answer (docs/api.md).
    expect(
      lock.responses['409'].content['application/json'].schema.properties.error.properties.code.enum,
    ).toEqual(['WRITE_CONFLICT', 'LOCK_CONFLICT']);
    expect(lock.responses['401']).toBeDefined();
    // A created table is never null, nor its id or status (GraphQL's non-null types).
    expect(create.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Tavolo',
    });
    expect(doc.components.schemas.Tavolo.required).toEqual(expect.arrayContaining(['id', 'status']));
    expect(doc.components.schemas.Tavolo.properties.id.type).toBe('string');
    expect(doc.components.schemas.Tavolo.properties.status.enum).toContain('free');
  });

  it('renders the reference page from assets served by the gateway', async () => {
    const page = await fetch(`${stack.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${stack.baseUrl}/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
