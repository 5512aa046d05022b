// The sender against real local HTTP servers: redirects are not followed, 10 s (here shortened) for an attempt, and a
// host that resolves to a loopback address is refused when connecting unless private addresses are allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '@coperto/errors';
import { createSender } from '../src/delivery/sender.js';
import { webhookFields } from '../src/webhook-input.js';

describe('sending a webhook', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(request.url!);
      if (request.url === '/redirect') response.writeHead(302, { location: '/target' }).end();
      else if (request.url === '/slow') setTimeout(() => response.writeHead(204).end(), 1500);
      else response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const sender = createSender({ allowPrivate: true });
    expect(await sender.send(`${base}/redirect`, {}, '{}')).toMatchObject({
      statusCode: 302,
      errore: 'HTTP 302',
    });
    expect(hits).not.toContain('/target');
    await sender.close();
  });

  it('gives up on an answer slower than the attempt timeout', async () => {
    const sender = createSender({ allowPrivate: true, timeoutMs: 300 });
    const result = await sender.send(`${base}/slow`, {}, '{}');
    expect(result.statusCode).toBeUndefined();
    expect(result.errore).toMatch(/timed out|Timeout/i);
    expect(result.durataMs).toBeLessThan(1400);
    await sender.close();
  });

  it('refuses a name resolving to a loopback address, and a loopback IP, unless private addresses are allowed', async () => {
    const guarded = createSender({ allowPrivate: false });
    const before = hits.length;
    const byName = await guarded.send(base.replace('127.0.0.1', 'localhost') + '/named', {}, '{}');
    expect(byName.errore).toMatch(/not a public address/);
    expect((await guarded.send(`${base}/literal`, {}, '{}')).errore).toMatch(/refused: .*127\.0\.0\.1/);
    expect(hits.length).toBe(before);
    await guarded.close();
    const open = createSender({ allowPrivate: true });
    expect((await open.send(base.replace('127.0.0.1', 'localhost') + '/named', {}, '{}')).statusCode).toBe(
      204,
    );
    await open.close();
  });

  it('an endpoint at a loopback or link-local address is refused with a 400 naming url', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://169.254.169.254/latest', 'http://[::1]/x']) {
      const refused = await webhookFields({ url }, false).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).issues[0]!.field).toBe('url');
    }
    expect(await webhookFields({ url: 'http://127.0.0.1:9/x' }, true)).toEqual({
      url: 'http://127.0.0.1:9/x',
    });
  });
});
