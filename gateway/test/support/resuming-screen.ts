import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A screen as the floor plan runs it (gateway/public/floor-plan/live.js): retries for ever, and its subscription
 * resumes after the last event it received (`$after`, which the document must declare). `pick` reads one `next`
 * result's event; it must have an `id`.
 */
export function resumingScreen<T extends { id: string }>(
  url: () => string,
  authorization: string,
  query: string,
  pick: (data: any) => T,
) {
  const received: T[] = [];
  const errors: unknown[] = [];
  let sockets: WebSocket[] = [];
  let connections = 0;
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authorization },
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: () => sleep(100),
    on: {
      connected: (socket) => {
        connections++;
        sockets.push(socket as WebSocket);
      },
    },
  });
  // graphql-ws sends this payload again on each reconnection, reading it then.
  const payload = { query, variables: { after: null as string | null } };
  client.subscribe(payload, {
    next: (result) => {
      if (result.errors) return void errors.push(result.errors);
      const event = pick(result.data);
      payload.variables.after = event.id;
      received.push(event);
    },
    error: (error) => errors.push(error),
    complete: () => {},
  });
  return {
    received,
    errors,
    connections: () => connections,
    /** Cuts the socket as a network drop would (no close handshake). */
    drop() {
      for (const socket of sockets) socket.terminate();
      sockets = [];
    },
    dispose: () => client.dispose(),
  };
}
