// `pnpm watch [--tenant demo] [--url http://127.0.0.1:3000] [--json]`: follows a running Coperto's live events
// over graphql-ws (table status changes, bookings created, updated, cancelled) and prints each as one line on
// stdout (`--json`: the event's envelope as one JSON line). Signs its token like `pnpm token` (JWT_SECRET, else
// the secret embedded mode keeps in DATA_DIR). Ctrl-C stops it. The events' schemas: the service's
// GET /asyncapi.json (AsyncAPI 3.0), which it names when it connects.
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { isValidTenantId, signToken } from '@coperto/auth';
import { eventLine, subscriptionDocument, WATCHED_FIELDS, type LiveEvent } from './event-line.js';
import { localSigningSecret } from './local-signing-secret.js';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string', default: 'demo' },
    url: { type: 'string', default: process.env.COPERTO_URL ?? 'http://127.0.0.1:3000' },
    json: { type: 'boolean', default: false },
  },
});
const tenantId = values.tenant ?? 'demo';
if (!isValidTenantId(tenantId)) {
  console.error(`Invalid tenant id ${JSON.stringify(tenantId)}: use 1-64 of A-Z a-z 0-9 _ -`);
  process.exit(2);
}
const token = await signToken({
  secret: localSigningSecret(),
  tenantId,
  admin: false,
  subject: 'watch',
  expiresIn: '12h',
  ...(process.env.JWT_ISSUER ? { issuer: process.env.JWT_ISSUER } : {}),
  ...(process.env.JWT_AUDIENCE ? { audience: process.env.JWT_AUDIENCE } : {}),
});

let stopping = false;
const stop = async (code: number) => {
  stopping = true;
  // Closes the socket politely; while it is reconnecting to a service that is down, there is nothing to wait for.
  await Promise.race([client.dispose(), new Promise((r) => setTimeout(r, 1000))]);
  process.exit(code);
};

const baseUrl = (values.url ?? '').replace(/\/+$/, '');
const url = `${baseUrl.replace(/^http/, 'ws')}/graphql`;
const client = createClient({
  url,
  webSocketImpl: WebSocket,
  connectionParams: { authorization: `Bearer ${token}` },
  lazy: false,
  // The service restarting or a network blip: reconnect for ever. A refused token (4403) will not get better.
  retryAttempts: Number.POSITIVE_INFINITY,
  shouldRetry: (event) => (event as { code?: number } | null)?.code !== 4403,
  on: {
    connected: () =>
      console.error(
        `watching tenant ${tenantId} at ${url} (Ctrl-C to stop); the events' schemas: ${baseUrl}/asyncapi.json`,
      ),
    closed: (event) => {
      if (stopping) return;
      const { code, reason } = event as { code?: number; reason?: string };
      console.error(`disconnected${code ? ` (${code}${reason ? ` ${reason}` : ''})` : ''}`);
    },
  },
});

const fields = Object.keys(WATCHED_FIELDS) as (keyof typeof WATCHED_FIELDS)[];
for (const field of fields) {
  client.subscribe<Record<string, LiveEvent>>(
    { query: subscriptionDocument(field) },
    {
      next: ({ data, errors }) => {
        if (errors?.length) return void console.error(`${field}: ${errors.map((e) => e.message).join('; ')}`);
        const event = data?.[field];
        if (event) console.log(values.json ? JSON.stringify(event) : eventLine(event));
      },
      error: (error) => {
        if (stopping) return;
        const { code, reason } = (error ?? {}) as { code?: number; reason?: string };
        const message =
          error instanceof Error ? error.message : code ? `closed ${code} ${reason ?? ''}` : String(error);
        console.error(`${field}: ${message.trim()}`);
        void stop(1);
      },
      complete: () => {},
    },
  );
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
