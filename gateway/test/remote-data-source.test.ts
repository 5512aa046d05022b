import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { UnauthenticatedError, UnavailableError } from '@coperto/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayContext } from '../src/graphql/context.js';
import { AuthForwardingDataSource, cacheHintOf } from '../src/host/remote-data-source.js';

/** A subgraph on loopback that records each request and answers what the test sets. */
let server: Server;
let baseUrl: string;
let seen: Array<{ url: string; headers: IncomingMessage['headers']; body: unknown }> = [];
let answer: (res: ServerResponse) => void = (res) => res.end();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString()),
      });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

function operation(
  context: Partial<GatewayContext>,
  restrict?: (hint: unknown) => void,
): GraphQLDataSourceProcessOptions<GatewayContext> {
  return {
    kind: 'incoming operation',
    request: {
      query: 'query Q($id: ID!) { tavolo(id: $id) { id } }',
      variables: { id: 't1' },
      operationName: 'Q',
    },
    context: context as GatewayContext,
    incomingRequestContext: { overallCachePolicy: restrict ? { restrict } : undefined },
    document: undefined,
    pathInIncomingRequest: [],
  } as unknown as GraphQLDataSourceProcessOptions<GatewayContext>;
}

describe('AuthForwardingDataSource (distributed mode: a subgraph over HTTP)', () => {
  it('posts the operation with the caller’s token and request id, and returns the subgraph’s answer', async () => {
    seen = [];
    answer = json(200, { data: { tavolo: { id: 't1' } } });
    const source = new AuthForwardingDataSource(`${baseUrl}/graphql`);
    const result = await source.process(operation({ authorization: 'Bearer abc', requestId: 'req-1' }));
    expect(result).toEqual({ data: { tavolo: { id: 't1' } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/graphql');
    expect(seen[0]!.headers.authorization).toBe('Bearer abc');
    expect(seen[0]!.headers['x-request-id']).toBe('req-1');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.body).toEqual({
      query: 'query Q($id: ID!) { tavolo(id: $id) { id } }',
      variables: { id: 't1' },
      operationName: 'Q',
    });
  });

  it('hands back GraphQL errors of a 200 answer as the subgraph gave them', async () => {
    answer = json(200, { data: null, errors: [{ message: 'nope', extensions: { code: 'NOT_FOUND' } }] });
    const source = new AuthForwardingDataSource(`${baseUrl}/graphql`);
    await expect(source.process(operation({}))).resolves.toEqual({
      data: null,
      errors: [{ message: 'nope', extensions: { code: 'NOT_FOUND' } }],
    });
  });

  it('a 401 is UNAUTHENTICATED; any other failure status, a body that is not a JSON object, or no answer is UNAVAILABLE', async () => {
    const source = new AuthForwardingDataSource(`${baseUrl}/graphql`);
    answer = json(401, { errors: [{ message: 'bad token' }] });
    await expect(source.process(operation({}))).rejects.toBeInstanceOf(UnauthenticatedError);
    for (const failing of [
      json(500, { errors: [{ message: 'boom' }] }),
      json(200, [1, 2]),
      (res: ServerResponse) => res.end('<html>'),
    ]) {
      answer = failing;
      await expect(source.process(operation({}))).rejects.toBeInstanceOf(UnavailableError);
    }
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      new AuthForwardingDataSource(`http://127.0.0.1:${port}/graphql`).process(operation({})),
    ).rejects.toBeInstanceOf(UnavailableError);
  });

  it('restricts the operation’s cache policy by the subgraph’s cache-control, as Apollo’s data source does', async () => {
    const hints: unknown[] = [];
    answer = json(200, { data: {} }, { 'cache-control': 'max-age=30, private' });
    await new AuthForwardingDataSource(`${baseUrl}/graphql`).process(
      operation({}, (hint) => hints.push(hint)),
    );
    expect(hints).toEqual([{ maxAge: 30, scope: 'PRIVATE' }]);
    expect(cacheHintOf('public, max-age=abc')).toEqual({ maxAge: 0, scope: 'PUBLIC' });
    expect(cacheHintOf('no-store')).toEqual({ maxAge: 0 });
  });
});
