import type { Socket } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { recordViolation, subscriptionViolation } from './event-contract.js';

/** How a socket ended. */
export interface Closed {
  code: number;
  reason: string;
}

/** The payloads a subscription received, and how it ended. */
export interface Received<T = any> {
  readonly items: T[];
  /** Resolves with the error (a CloseEvent-like object for a closed socket, else GraphQL errors) when it fails. */
  readonly failed: Promise<unknown>;
  /** Waits (bounded) until at least `count` items arrived; returns them all. */
  waitFor(count: number, timeoutMs?: number): Promise<T[]>;
  stop(): void;
}

/** A graphql-ws client as an application would create it, without retries. */
export function graphqlWsClient(url: string, authorization?: string): Client & { closed: Promise<Closed> } {
  let onClosed: (closed: Closed) => void = () => {};
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...(authorization === undefined ? {} : { connectionParams: { authorization } }),
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        onClosed({ code, reason: String(reason) });
      },
    },
  });
  return Object.assign(client, { closed });
}

/**
 * Subscribes and collects `next` payloads. Each payload is checked against the AsyncAPI document
 * (event-contract.ts); the e2e suites fail a test that received one that does not match.
 */
export function collect<T = any>(
  client: Client,
  query: string,
  variables: Record<string, unknown> = {},
): Received<T> {
  const items: T[] = [];
  let onFailed: (error: unknown) => void = () => {};
  const failed = new Promise<unknown>((resolve) => (onFailed = resolve));
  const stop = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) onFailed(value.errors);
        else {
          recordViolation(subscriptionViolation(value.data));
          items.push(value.data as T);
        }
      },
      error: (error) => onFailed(error),
      complete: () => {},
    },
  );
  return {
    items,
    failed,
    stop,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (items.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return items;
    },
  };
}

/** A hand-driven graphql-transport-ws socket whose reading can be paused, as a stuck client would. */
export interface RawSubscriber {
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  /** Stops reading from the TCP socket: the kernel buffers fill, then the server's writes back up. */
  pause(): void;
  resume(): void;
  /** Messages of type `next` read so far. */
  readonly nextCount: number;
  /** Subscriptions (by id) that received at least one `next`. */
  readonly liveSubscriptions: number;
  readonly closed: Promise<Closed>;
  terminate(): void;
}

/** Connects, sends `connection_init` with the authorization and waits for the ack. */
export async function rawSubscriber(url: string, authorization: string): Promise<RawSubscriber> {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  let tcp: Socket | undefined;
  ws.on('upgrade', (response) => (tcp = response.socket as Socket));
  const closed = new Promise<Closed>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  let nextCount = 0;
  const live = new Set<string>();
  const acked = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string };
      if (message.type === 'connection_ack') resolve();
      if (message.type === 'next') {
        nextCount++;
        live.add(message.id ?? '');
      }
    });
    ws.once('error', reject);
    void closed.then((c) => reject(new Error(`closed before ack: ${c.code} ${c.reason}`)));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization } }));
  await acked;
  return {
    subscribe: (id, query, variables = {}) =>
      ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
    pause: () => tcp?.pause(),
    resume: () => tcp?.resume(),
    get nextCount() {
      return nextCount;
    },
    get liveSubscriptions() {
      return live.size;
    },
    closed,
    terminate: () => ws.terminate(),
  };
}

/** Waits until `condition` holds, polling, or throws after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
