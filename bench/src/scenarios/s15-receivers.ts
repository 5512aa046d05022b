/**
 * The app makers' side of scenarios 15 and 16: real HTTP servers in the bench process, each one webhook endpoint,
 * verifying every request with the `standardwebhooks` package (not Coperto's code) before answering 204; and the
 * events that feed them, table status changes made through the public API.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Api } from '../api.js';
import { loadStandardWebhooks, type StandardWebhook } from '../deps.js';

/** The part of a delivered CloudEvent the bench reads. */
export interface DeliveredEvent {
  id: string;
  type: string;
  /** When the change was made (the event's own publish time). */
  time: string;
  data: { id: string; orderId?: string | null };
}

export interface Receiver {
  readonly name: string;
  readonly url: string;
  /** Requests answered (any outcome), and those whose signature `standardwebhooks` refused (answered 400). */
  readonly counts: { requests: number; badSignatures: number; duplicates: number };
  /** Event ids received with a valid signature (first receipt). */
  readonly seen: Set<string>;
  /** The secret the registration answered: requests before it is set are refused. */
  setSecret(secret: string): void;
  /** Stops answering: the port is closed and open connections dropped (the sender sees ECONNREFUSED). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/**
 * One endpoint: a `node:http` server on a loopback port. `onEvent` is called once per event id, with the time it
 * arrived (Date.now()), after its signature was verified.
 */
export async function startReceiver(
  name: string,
  onEvent: (event: DeliveredEvent, receivedAt: number) => void,
): Promise<Receiver> {
  const { Webhook } = await loadStandardWebhooks();
  let webhook: StandardWebhook | null = null;
  const counts = { requests: 0, badSignatures: 0, duplicates: 0 };
  const seen = new Set<string>();
  const server: Server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        counts.requests++;
        let event: DeliveredEvent;
        try {
          if (!webhook) throw new Error('no secret yet');
          event = webhook.verify(body, request.headers as Record<string, string>) as DeliveredEvent;
        } catch {
          counts.badSignatures++;
          response.writeHead(400).end();
          return;
        }
        const receivedAt = Date.now();
        response.writeHead(204).end();
        if (seen.has(event.id)) {
          counts.duplicates++;
          return;
        }
        seen.add(event.id);
        onEvent(event, receivedAt);
      },
      () => response.writeHead(400).end(),
    );
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    name,
    url: `http://127.0.0.1:${port}/coperto/webhooks`,
    counts,
    seen,
    setSecret: (secret) => (webhook = new Webhook(secret)),
    down: stop,
    up: listen,
    close: stop,
  };
}

/** Registers each receiver as an endpoint of the admin's tenant for `tables.status` (the public API). */
export async function registerEndpoints(admin: Api, receivers: readonly Receiver[]): Promise<string[]> {
  const ids: string[] = [];
  for (const receiver of receivers) {
    const created = await admin.call<{ id: string; secret: string }>('POST', '/api/webhooks', {
      url: receiver.url,
      eventi: ['tables.status'],
    });
    receiver.setSecret(created.secret);
    ids.push(created.id);
  }
  return ids;
}

export interface StatusChanges {
  /** Changes acknowledged (2xx): orderId → when the answer came. */
  acked: Map<string, number>;
  /** Changes not acknowledged (an error status, a refused or dropped connection). */
  failed: number;
  /** PUT answer times, ms. */
  putMs: number[];
  /** Stops sending and waits for the changes in flight. */
  stop(): Promise<void>;
}

/**
 * `rate` status changes per second (PUT /api/tavoli/:id/status, occupied and open in turn), spread over the tables
 * with at most one change of a table in flight, each with a unique `orderId` (`<prefix>-<n>`) that its event
 * carries, until stopped. `baseUrl()` is read for each change (scenario 16 restarts the process on another port).
 */
export function startStatusChanges(options: {
  baseUrl: () => string;
  token: string;
  tableIds: readonly string[];
  rate: number;
  prefix: string;
}): StatusChanges {
  const acked = new Map<string, number>();
  const putMs: number[] = [];
  const busy = new Set<string>();
  const toggles = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let failed = 0;
  let sent = 0;
  let next = 0;
  const began = performance.now();
  const change = async (tableId: string, orderId: string) => {
    const toggle = (toggles.get(tableId) ?? 0) + 1;
    toggles.set(tableId, toggle);
    const started = performance.now();
    try {
      const response = await fetch(`${options.baseUrl()}/api/tavoli/${tableId}/status`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: toggle % 2 ? 'occupied' : 'open', orderId }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      if (response.ok) {
        acked.set(orderId, Date.now());
        putMs.push(performance.now() - started);
      } else failed++;
    } catch {
      failed++;
    }
  };
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - began) / 1000) * options.rate);
    while (sent < due) {
      // The next table with no change in flight; none free: the tick's changes wait (the rate is not met).
      let tableId: string | undefined;
      for (let k = 0; k < options.tableIds.length && !tableId; k++) {
        const candidate = options.tableIds[(next + k) % options.tableIds.length]!;
        if (!busy.has(candidate)) tableId = candidate;
      }
      if (!tableId) return;
      next = (options.tableIds.indexOf(tableId) + 1) % options.tableIds.length;
      const id = tableId;
      busy.add(id);
      const work: Promise<void> = change(id, `${options.prefix}-${sent++}`).finally(() => {
        busy.delete(id);
        inFlight.delete(work);
      });
      inFlight.add(work);
    }
  }, 10);
  return {
    acked,
    putMs,
    get failed() {
      return failed;
    },
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
