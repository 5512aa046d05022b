import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@coperto/errors';
import { jsonDepthExceeds, MAX_JSON_DEPTH, readJsonBody } from '../src/json-body.js';

/** A server that answers with what readJsonBody made of the request (or the error's code). */
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    readJsonBody(req, 64).then(
      (body) => res.end(JSON.stringify({ body: body === undefined ? '<none>' : body })),
      (error: unknown) =>
        res.end(JSON.stringify({ error: error instanceof AppError ? error.code : 'other' })),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function send(method: string, headers: Record<string, string>, chunks: string[] = []): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readJsonBody', () => {
  it('reads no body from a request without Content-Length or Transfer-Encoding, or with length 0', async () => {
    expect(await send('GET', {})).toEqual({ body: '<none>' });
    expect(await send('POST', { 'content-length': '0' })).toEqual({ body: '<none>' });
  });

  it('parses a JSON body, with a declared length or chunked', async () => {
    const json = '{"a":1}';
    const sized = { 'content-type': 'application/json', 'content-length': String(json.length) };
    expect(await send('POST', sized, [json])).toEqual({ body: { a: 1 } });
    const chunked = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    expect(await send('POST', chunked, ['{"b":', '2}'])).toEqual({ body: { b: 2 } });
  });

  it('refuses a body over the limit (413), one that is not JSON (415) and malformed JSON (400)', async () => {
    const big = JSON.stringify({ x: 'y'.repeat(100) });
    expect(
      await send('POST', { 'content-type': 'application/json', 'content-length': String(big.length) }, [big]),
    ).toEqual({ error: 'PAYLOAD_TOO_LARGE' });
    const chunkedBig = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    expect(await send('POST', chunkedBig, [big.slice(0, 50), big.slice(50)])).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
    });
    expect(await send('POST', { 'content-type': 'text/plain', 'content-length': '2' }, ['hi'])).toEqual({
      error: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect(await send('POST', { 'content-type': 'application/json', 'content-length': '2' }, ['{x'])).toEqual(
      {
        error: 'VALIDATION_FAILED',
      },
    );
  });

  it('refuses JSON nested deeper than the limit with a 400 (regression: deep batch items overflowed the stack)', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const headers = (text: string) => ({
      'content-type': 'application/json',
      'content-length': String(text.length),
    });
    // 64-byte limit on the test server: 31 levels fit; the limit itself is checked on text below.
    expect(await send('POST', headers(deep(31)), [deep(31)])).toEqual({ body: JSON.parse(deep(31)) });
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(500)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds(String.raw`{"a":"\"[[[["}`, 2)).toBe(false);
  });
});

describe('readJsonBody depth limit', () => {
  it('answers VALIDATION_FAILED for a body deeper than MAX_JSON_DEPTH', async () => {
    const server2 = createServer((req, res) => {
      readJsonBody(req).then(
        () => res.end(JSON.stringify({ ok: true })),
        (error: unknown) =>
          res.end(JSON.stringify({ error: error instanceof AppError ? error.code : 'other' })),
      );
    });
    await new Promise<void>((r) => server2.listen(0, '127.0.0.1', r));
    const port2 = (server2.address() as AddressInfo).port;
    const text = `{"items":[${'['.repeat(5000)}${']'.repeat(5000)}]}`;
    const response = await fetch(`http://127.0.0.1:${port2}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(await response.json()).toEqual({ error: 'VALIDATION_FAILED' });
    await new Promise<void>((r) => server2.close(() => r()));
  });
});
