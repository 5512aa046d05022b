import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { injectableGateway } from './support/inject-gateway.js';

type Gateway = Awaited<ReturnType<typeof injectableGateway>>;

describe('REST layer on fastify (inject, embedded)', () => {
  let gateway: Gateway;
  let auth: Record<string, string>;

  beforeAll(async () => {
    gateway = await injectableGateway();
    auth = { authorization: `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}` };
  }, 60_000);
  afterAll(() => gateway?.close());

  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    gateway.http.inject({
      method: method as 'GET',
      url,
      headers: {
        ...auth,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('creates and reads a room: the seed statuses and bodies', async () => {
    const created = await call('POST', '/api/sale', { codice: 'terrazza', width: 800, height: 600 });
    expect(created.statusCode).toBe(201);
    const sala = created.json();
    expect(sala.codice).toBe('TERRAZZA');
    const read = await call('GET', `/api/sale/${sala.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().id).toBe(sala.id);
    expect(read.headers['x-request-id']).toBeTruthy();
  });

  it('answers 401 before reading the body, 404 for an unknown path, 405 with Allow', async () => {
    const noToken = await gateway.http.inject({ method: 'POST', url: '/api/sale', payload: 'not json' });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().error.code).toBe('UNAUTHENTICATED');
    expect(noToken.headers['www-authenticate']).toMatch(/^Bearer/);
    const unknown = await call('GET', '/api/nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    const wrongMethod = await call('PUT', '/api/sale');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, POST');
    expect(wrongMethod.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('refuses a body that is not JSON (415) or malformed (400 naming body)', async () => {
    const text = await call('POST', '/api/sale', undefined, { 'content-type': 'text/plain' });
    expect([201, 400, 415]).toContain(text.statusCode);
    const plain = await gateway.http.inject({
      method: 'POST',
      url: '/api/sale',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'codice=X',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const malformed = await gateway.http.inject({
      method: 'POST',
      url: '/api/sale',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"codice":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details.fields[0].field).toBe('body');
  });

  it('serializes a success body with its documented schema: every property, nulls and nested objects kept', async () => {
    const doc = (await gateway.http.inject({ url: '/openapi.json' })).json();
    const created = await call('POST', '/api/tavoli', { name: 'T9', seats: 4 });
    expect(created.statusCode).toBe(201);
    const table = created.json();
    expect(Object.keys(table).sort()).toEqual(Object.keys(doc.components.schemas.Tavolo.properties).sort());
    expect(table.lock).toBeNull();
    const locked = await call('POST', `/api/tavoli/${table.id}/lock`, { deviceId: 'tablet-1', ttl: 60 });
    expect(locked.statusCode).toBe(200);
    const read = await call('GET', `/api/tavoli/${table.id}`);
    expect(read.json().lock).toMatchObject({ deviceId: 'tablet-1' });
    expect(read.json().seats).toBe(4);
    const list = await call('GET', '/api/tavoli?capacitaMin=4&attivo=true');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((t: { id: string }) => t.id)).toContain(table.id);
  });

  it('answers what fastify cannot route with the REST 404 and its request id (bad percent-encoding, a 5,000-char id)', async () => {
    for (const url of ['/api/tavoli/%E0%A4%A', `/api/tavoli/${'a'.repeat(5000)}`]) {
      const res = await call('GET', url);
      expect(res.statusCode, url.slice(0, 40)).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers a request the HTTP parser refuses (method FOO, found by the fuzzer) with the REST error body', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1', () =>
        socket.write('FOO / HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body.error.code).toBe('VALIDATION_FAILED');
  });
});
