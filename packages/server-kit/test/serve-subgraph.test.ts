import { connect, type AddressInfo } from 'node:net';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { FastifyInstance } from 'fastify';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATION_LIMITS } from '@coperto/graphql-limits';
import { UnauthenticatedError } from '@coperto/errors';
import { createSubgraphExecutor } from '../src/execute-subgraph.js';
import { INTERNAL_MAX_JSON_DEPTH } from '../src/json-depth.js';
import { createLogger } from '../src/logger.js';
import { createSubgraphHttpServer } from '../src/serve-subgraph.js';
import { closeHttpServer } from '../src/shutdown.js';
import type { Subgraph } from '../src/subgraph.js';

const typeDefs = parse('type Query { echo(n: Int!): Int! }');
const subgraph: Subgraph = {
  name: 'test',
  typeDefs,
  schema: buildSubgraphSchema({
    typeDefs,
    resolvers: { Query: { echo: (_: unknown, { n }: { n: number }) => n } },
  }),
  outboxCollections: [],
  init: async () => {},
  createContext: async ({ authorization }) => {
    if (authorization !== 'Bearer ok') throw new UnauthenticatedError();
    return {};
  },
};

const BODY_LIMIT = 4096;
const observed: Array<{ status: number; durationMs: number }> = [];
let app: FastifyInstance;
beforeAll(async () => {
  app = await createSubgraphHttpServer({
    executor: createSubgraphExecutor(subgraph, { limits: { ...DEFAULT_OPERATION_LIMITS, maxAliases: 2 } }),
    logger: createLogger({ name: 'test', level: 'silent' }),
    bodyLimitBytes: BODY_LIMIT,
    onRequest: (entry) => observed.push(entry),
  });
});
afterAll(async () => {
  await closeHttpServer(app.server);
  await app.close();
});

const json = { 'content-type': 'application/json', authorization: 'Bearer ok' };
const post = (payload: string, headers: Record<string, string> = json) =>
  app.inject({ method: 'POST', url: '/graphql', headers, payload });
/** A JSON body nesting `levels` deep in all: the operation envelope plus nested arrays in `extensions`. */
const nested = (levels: number) =>
  `{"query":"{ echo(n: 1) }","extensions":{"x":${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}}}`;

describe('subgraph port (fastify)', () => {
  it('executes a POST with a valid token: 200 JSON, not cacheable, and reports status and duration', async () => {
    observed.length = 0;
    const res = await post(JSON.stringify({ query: 'query($n: Int!) { echo(n: $n) }', variables: { n: 7 } }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { echo: 7 } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(observed).toEqual([{ status: 200, durationMs: expect.any(Number) }]);
  });

  it('executes a GET query', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('{ echo(n: 2) }')}`,
      headers: { authorization: 'Bearer ok' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { echo: 2 } });
  });

  it('401 with WWW-Authenticate without a valid token, before the body is read (even one over the limit)', async () => {
    for (const authorization of [undefined, 'Bearer nope']) {
      const res = await post('x'.repeat(BODY_LIMIT * 2), {
        'content-type': 'application/json',
        ...(authorization ? { authorization } : {}),
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(res.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('413 PAYLOAD_TOO_LARGE past the body limit, declared or chunked', async () => {
    const big = JSON.stringify({ query: '{ echo(n: 1) }', pad: 'y'.repeat(BODY_LIMIT) });
    const res = await post(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Payload over the limit of 4096 bytes',
        details: { limit: '4096 bytes' },
      },
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const chunked = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...json, 'transfer-encoding': 'chunked' },
      payload: big,
    });
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it(`400 VALIDATION_FAILED naming body past ${INTERNAL_MAX_JSON_DEPTH} levels; the limit itself passes`, async () => {
    expect((await post(nested(INTERNAL_MAX_JSON_DEPTH))).statusCode).toBe(200);
    const res = await post(nested(INTERNAL_MAX_JSON_DEPTH + 1));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'JSON body nested too deeply',
        details: {
          fields: [{ field: 'body', message: `nests deeper than ${INTERNAL_MAX_JSON_DEPTH} levels` }],
        },
      },
    });
  });

  it('400 for malformed JSON, 415 for a body that is not JSON or not UTF-8', async () => {
    const bad = await post('{"query":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'body', message: 'is not valid JSON' }] },
      },
    });
    for (const type of ['text/plain', 'application/json; charset=latin1']) {
      const res = await post('{"query":"{ echo(n: 1) }"}', { ...json, 'content-type': type });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('a document over the operation limits is a 400 QUERY_TOO_COMPLEX', async () => {
    const res = await post(JSON.stringify({ query: '{ a: echo(n: 1) b: echo(n: 2) c: echo(n: 3) }' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('a request error is 400 for application/graphql-response+json', async () => {
    const res = await post(
      JSON.stringify({ query: 'query($n: Int!) { echo(n: $n) }', variables: { n: 'two' } }),
      {
        ...json,
        accept: 'application/graphql-response+json',
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
  });

  it('405 with Allow for another method on /graphql, 404 NOT_FOUND elsewhere (a bad percent-encoding too)', async () => {
    const put = await app.inject({ method: 'PUT', url: '/graphql', headers: json, payload: '{}' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
    for (const url of ['/nope', '/%F2%B0%86%9A/graphql', '/graphql/extra']) {
      const res = await app.inject({ method: 'GET', url, headers: json });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
  });

  it('over a real socket, a request target that is not a path it serves is a 404 and the port lives on (regression: FC_SEED=-1584478283)', async () => {
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const { port } = app.server.address() as AddressInfo;
    /** The status line of a raw `GET <target>`: a client would normalize these targets away. */
    const statusOf = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('error', reject);
        socket.on('close', () => resolve(text.split('\r\n', 1)[0]!));
      });
    for (const target of [
      '//%F2%B0%86%9A/graphql',
      '//example.com/graphql',
      '/\\evil/graphql',
      '/%zz',
      '*',
    ]) {
      expect(await statusOf(target)).toBe('HTTP/1.1 404 Not Found');
    }
    expect(await statusOf(`/graphql?query=${encodeURIComponent('{ echo(n: 5) }')}`)).toBe('HTTP/1.1 200 OK');
  });
});
