// A live screen that never misses an event: its subscription resumes after the last event it received
// (`after`) when its socket drops under a stream of status changes, and, in distributed mode, when the gateway
// instance it was on restarts. Every change arrives once, in order. Both modes (embedded: the in-process log;
// distributed: the JetStream stream read by a gateway that never saw the events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, mintToken, newTenantId } from '@coperto/testkit';
import { resumingScreen } from '../gateway/test/support/resuming-screen.js';
import { graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { MODES, sharedDistributed, startStack } from './support/modes.js';
import { startProcess, type ProcessHandle, type Stack } from './support/stack.js';

const STATUSES = ['occupied', 'dirty', 'free'] as const;
const CHANGES = 60;
const DROP_AT = 15;
const QUERY = `subscription ($after: ID) { tableStatusChanged(after: $after) { id data { id status } } }`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe.each(MODES)('resuming subscriptions (%s)', (mode) => {
  let stack: Stack;
  let token: string;
  /** Distributed: the gateway instance the screen is on (restarted mid-stream); the stack's serves the writes. */
  let screenGateway: ProcessHandle | undefined;
  let screenPorts: { app: number; health: number; metrics: number };

  beforeAll(async () => {
    token = await mintToken({ tenantId: newTenantId() });
    if (mode === 'embedded') stack = await startStack(mode);
    else {
      // This file stops and starts a gateway of its own in front of the shared stack, with that stack's settings.
      const own = await sharedDistributed();
      stack = own;
      const processes = own.processes;
      const [app, health, metrics] = (await freePorts(3)) as [number, number, number];
      screenPorts = { app, health, metrics };
      screenGateway = await startProcess(
        'gateway#screen',
        'gateway/src/index.ts',
        processes.at(-1)!.settings,
        screenPorts,
      );
    }
  });
  afterAll(async () => {
    await screenGateway?.stop();
    await stack?.close();
  });

  const screenUrl = () =>
    screenGateway
      ? `ws://127.0.0.1:${screenPorts.app}/graphql`
      : `${stack.baseUrl.replace(/^http/, 'ws')}/graphql`;

  it('gets every status change once and in order across a dropped socket (and a restarted gateway)', async () => {
    const table = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'R1', seats: 4 } })).body;
    const setStatus = async (status: string) => {
      const put = await stack.api('PUT', `/api/tavoli/${table.id}/status`, { token, body: { status } });
      expect(put.status).toBe(200);
    };
    const screen = resumingScreen(screenUrl, `Bearer ${token}`, QUERY, (data) => ({
      id: data.tableStatusChanged.id as string,
      status: data.tableStatusChanged.data.status as string,
    }));
    // Live first. Subscribing has no acknowledgement: change the status until a change reaches the screen; from
    // then on every change must, and those before it never count.
    let n = 0;
    const next = () => STATUSES[n++ % STATUSES.length]!;
    for (let tries = 0; screen.received.length === 0; tries++) {
      if (tries === 30) throw new Error('the subscription never went live');
      await setStatus(next());
      await until(() => screen.received.length > 0, 'the first event', 1000).catch(() => {});
    }
    await sleep(200);
    const sent: string[] = screen.received.map((e) => e.status);
    let restart: Promise<void> | undefined;
    for (let i = 1; i < CHANGES; i++) {
      if (i === DROP_AT) {
        if (screenGateway) {
          // The gateway the screen is on goes away and comes back on the same address; the screen resumes there.
          const stopped = screenGateway;
          restart = (async () => {
            await stopped.stop();
            screenGateway = await startProcess(
              'gateway#screen',
              'gateway/src/index.ts',
              stopped.settings,
              screenPorts,
            );
          })();
        } else screen.drop();
      }
      const status = next();
      await setStatus(status);
      sent.push(status);
      await sleep(10);
    }
    await restart;
    await until(() => screen.received.length >= sent.length, `${sent.length} events`, 60_000);
    await sleep(300);
    expect(screen.errors).toEqual([]);
    expect(screen.connections()).toBeGreaterThanOrEqual(2);
    expect(screen.received.map((e) => e.status)).toEqual(sent);
    expect(new Set(screen.received.map((e) => e.id)).size).toBe(sent.length);
    await screen.dispose();
    // The gateway the screen resumed on counted it.
    const metricsUrl = screenGateway ? `http://127.0.0.1:${screenPorts.metrics}/metrics` : stack.metricsUrl;
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/^graphql_ws_resumes_total\{[^}]*outcome="resumed"[^}]*\} [1-9]/m);
  });

  it('tells a screen to reload when it asks to resume after an event it cannot replay', async () => {
    const client = graphqlWsClient(screenUrl(), `Bearer ${token}`);
    const result = await client
      .iterate({ query: QUERY, variables: { after: 'not-an-event-of-this-tenant' } })
      .next();
    expect(result.value?.errors?.[0]?.extensions).toMatchObject({
      code: 'RELOAD_REQUIRED',
      reason: 'unknown',
    });
    await client.dispose();
  });
});
