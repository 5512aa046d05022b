import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGatewayConfig, startGatewayApp } from '@coperto/gateway';
import { createLogger } from '@coperto/server-kit';
import { mintToken, newTenantId, serverUrls, TEST_JWT_SECRET, uniqueName } from '@coperto/testkit';
import { createApi, createGraphQL } from './support/http.js';
import { MODES } from './support/modes.js';
import { startDistributed, type Mode } from './support/stack.js';

interface Observed {
  baseUrl: string;
  metricsUrl: string;
  /** Metrics of a process that relays an outbox (embedded: the one process; distributed: tavolo's). */
  relayMetricsUrl: string;
  /**
   * Log lines so far: of one process (distributed: `gateway`, `tavolo#0`, …), or of all of them. Embedded mode
   * is one process: every name reads its one log.
   */
  lines(process?: string): Record<string, unknown>[];
  close(): Promise<void>;
}

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** A stack whose log lines the test reads: embedded through the logger's stream, distributed from the processes' output. */
async function startObserved(mode: Mode): Promise<Observed> {
  if (mode === 'distributed') {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    const stack = await startDistributed({
      mongoUrl,
      natsUrl,
      redisUrl,
      database: uniqueName('obs'),
      extraEnv: { LOG_LEVEL: 'info' },
    });
    return {
      baseUrl: stack.baseUrl,
      metricsUrl: stack.metricsUrl,
      relayMetricsUrl: `http://127.0.0.1:${stack.subgraphs.tavolo![0]!.metricsPort}/metrics`,
      lines: (process) =>
        stack.processes.filter((p) => !process || p.name === process).flatMap((p) => parseLines(p.output())),
      close: () => stack.close(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-obs-'));
  let text = '';
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const config = readGatewayConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    HEALTH_PORT: '0',
    METRICS_PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    APOLLO_TELEMETRY_DISABLED: '1',
  });
  const app = await startGatewayApp(config, createLogger({ name: 'gateway', destination: stream }), {
    handleSignals: false,
  });
  return {
    baseUrl: `http://127.0.0.1:${app.ports.app}`,
    metricsUrl: `http://127.0.0.1:${app.ports.metrics}/metrics`,
    relayMetricsUrl: `http://127.0.0.1:${app.ports.metrics}/metrics`,
    lines: () => parseLines(text),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function eventually<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never saw ${what}`);
}

describe.each(MODES)('request ids, access lines and metrics (%s mode)', (mode) => {
  let stack: Observed;
  let tenant: string;
  let token: string;

  beforeAll(async () => {
    stack = await startObserved(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => stack?.close());

  it("returns the caller's id and logs it at the gateway and at the subgraph, each in its own log", async () => {
    const api = createApi(stack.baseUrl);
    const id = `obs-${mode}-${Date.now()}`;
    const res = await api('GET', '/api/tavoli', { token, headers: { 'x-request-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(id);
    const access = await eventually(
      () => stack.lines('gateway').find((l) => l.msg === 'request' && l.requestId === id),
      'the access line in the gateway’s log',
    );
    expect(access).toMatchObject({
      route: '/api/tavoli',
      operation: 'ListTavoli',
      tenant,
      status: 200,
      method: 'GET',
    });
    expect(access.durationMs).toEqual(expect.any(Number));
    const sub = await eventually(
      () => stack.lines('tavolo#0').find((l) => l.msg === 'subgraph request' && l.requestId === id),
      'the subgraph line in the tavolo subgraph’s log',
    );
    expect(sub.subgraph).toBe('tavolo');
    if (mode === 'distributed') {
      // Separate processes, separate logs: the access line is the gateway's only, the subgraph line tavolo's.
      expect(stack.lines('tavolo#0').some((l) => l.msg === 'request' && l.requestId === id)).toBe(false);
      expect(stack.lines('gateway').some((l) => l.msg === 'subgraph request' && l.requestId === id)).toBe(
        false,
      );
      expect(sub.name).toBe('tavolo');
      expect(access.name).toBe('gateway');
    }
  });

  it('replaces an insane id by a UUID, and puts the id in REST and GraphQL error bodies', async () => {
    const api = createApi(stack.baseUrl);
    const odd = await api('GET', '/api/tavoli/missing', { token, headers: { 'x-request-id': 'not sane!' } });
    expect(odd.status).toBe(404);
    const id = odd.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(odd.body.error.requestId).toBe(id);

    const gql = await createGraphQL(stack.baseUrl)(token, '{ tavolo(id: "x") { nope } }');
    expect(gql.body.errors[0].extensions.requestId).toBe(gql.headers.get('x-request-id'));
  });

  it('labels REST metrics by route template, never by raw path', async () => {
    const api = createApi(stack.baseUrl);
    await api('GET', '/api/tavoli/some-unknown-id', { token });
    const text = await (await fetch(stack.metricsUrl)).text();
    expect(text).toMatch(/http_requests_total\{[^}]*route="\/api\/tavoli\/:id"/);
    expect(text).not.toContain('some-unknown-id');
    expect(text).not.toMatch(/route="\/api"/);
    expect(text).toMatch(/graphql_operation_duration_seconds_count\{[^}]*operation="GetTavolo"/);
    expect(text).toMatch(/^graphql_ws_open_sockets\{[^}]*\} 0$/m);
    expect(text).toMatch(/^graphql_ws_subscriptions\{[^}]*\} 0$/m);
    expect(text).toMatch(/^graphql_ws_subscription_groups\{[^}]*\} 0$/m);
    expect(text).toMatch(/^cache_misses_total\{[^}]*\} [1-9]/m);
    if (mode === 'embedded') expect(text).toMatch(/^outbox_backlog\{[^}]*\} \d+$/m);
    // Per-tenant state against its bound (docs/scaling.md): the cache's views and the sockets' tenants.
    expect(text).toMatch(/^bounded_state_entries\{[^}]*structure="cache_tenant_views"[^}]*\} [1-9]/m);
    expect(text).toMatch(
      /^bounded_state_capacity\{[^}]*structure="subscription_socket_tenants"[^}]*\} \d+$/m,
    );
    // The verified tokens, the channel directory's memory and the REST facade's encoded answers.
    expect(text).toMatch(/^bounded_state_entries\{[^}]*structure="auth_verified_tokens"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^bounded_state_capacity\{[^}]*structure="auth_channel_directory"[^}]*\} 10000$/m);
    expect(text).toMatch(/^bounded_state_capacity\{[^}]*structure="rest_encoded_answers"[^}]*\} 256$/m);
  });

  it('exposes the outbox backlog and the age of its oldest pending event where the outbox is relayed', async () => {
    const text = await (await fetch(stack.relayMetricsUrl)).text();
    expect(text).toMatch(/^outbox_backlog\{[^}]*\} \d+$/m);
    expect(text).toMatch(/^outbox_oldest_event_age_seconds\{[^}]*\} [\d.]+(e[-+]\d+)?$/m);
    // tavolo's per-tenant caches, in its own process (distributed) or the gateway's (embedded).
    expect(text).toMatch(/^bounded_state_capacity\{[^}]*structure="tavolo_table_directories"[^}]*\} 1000$/m);
    expect(text).toMatch(/^bounded_state_capacity\{[^}]*structure="outbox_early_publishes"[^}]*\} 10000$/m);
  });
});
