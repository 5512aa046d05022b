// An app maker's endpoint: a real HTTP server that verifies each request with the `standardwebhooks` package (never
// with the subgraph's own code), and can be down (no server listening), failing (503) or slow.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  /** The secrets (by index in `secrets`) whose signature verified. */
  verifiedWith: number[];
  body: { id: string; type: string; data: unknown };
  signatures: number;
  answered: number;
}

export interface Receiver {
  readonly url: string;
  /** Secrets the app maker was given, in order (a rotation adds one). */
  readonly secrets: string[];
  readonly received: Received[];
  /** Ids of the events answered 2xx. */
  delivered(): Set<string>;
  /** A second request with the same webhook-id while one was in flight (the same delivery sent twice at once). */
  readonly overlaps: string[];
  /** 'up' answers 204; 'failing' answers 503; 'down' closes the port (connection refused). */
  setMode(mode: 'up' | 'failing' | 'down'): Promise<void>;
  /** Milliseconds every answer waits (widens the window two senders could overlap in). */
  holdMs: number;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startReceiver(): Promise<Receiver> {
  let mode: 'up' | 'failing' | 'down' = 'up';
  const inFlight = new Set<string>();
  const receiver: Receiver = {
    url: '',
    secrets: [],
    received: [],
    overlaps: [],
    holdMs: 0,
    delivered: () => new Set(receiver.received.filter((r) => r.answered === 204).map((r) => r.id)),
    setMode: async (next) => {
      if (next === 'down' && mode !== 'down') await closeServer();
      if (next !== 'down' && mode === 'down') await listen();
      mode = next;
    },
    close: () => (mode === 'down' ? Promise.resolve() : closeServer()),
  };
  let server: Server;
  let port = 0;
  const handle = async (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    const body = await readBody(request);
    const id = String(request.headers['webhook-id']);
    if (inFlight.has(id)) receiver.overlaps.push(id);
    inFlight.add(id);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    const verifiedWith = receiver.secrets.flatMap((secret, index) => {
      try {
        new Webhook(secret).verify(body, headers);
        return [index];
      } catch {
        return [];
      }
    });
    if (receiver.holdMs > 0) await new Promise((r) => setTimeout(r, receiver.holdMs));
    const answered = mode === 'failing' ? 503 : 204;
    inFlight.delete(id);
    receiver.received.push({
      id,
      verifiedWith,
      body: JSON.parse(body) as Received['body'],
      signatures: headers['webhook-signature'].split(' ').length,
      answered,
    });
    response.writeHead(answered).end();
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => void handle(req, res));
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen();
  Object.assign(receiver, { url: `http://127.0.0.1:${port}/hooks` });
  return receiver;
}
