// A live screen that never misses an event: its subscription resumes after the last event it received
// (`after`) when its socket drops under a stream of status changes, and, in distributed mode, when the gateway
// instance it was on restarts. Every change arrives once, in order. Both modes (embedded: the in-process log;
// distributed: the JetStream stream read by a gateway that never saw the events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, mintToken, newTenantId } from '@coperto/testkit';
import { resumingScreen } from '../gateway/test/support/resuming-screen.js';
import { graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { MODES, startStack } from './support/modes.js';
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

/** The env a gateway process was started with, without its ports. */
function envOf(process: ProcessHandle): Record<string, string> {
  const entries = process.env.split('\n').map((line) => {
    const at = line.indexOf('=');
    return [line.slice(0, at), line.slice(at + 1)] as const;
  });
  return Object.fromEntries(entries.filter(([name]) => !/^(PORT|HEALTH_PORT|METRICS_PORT)$/.test(name)));
}

describe.each(MODES)('resuming subscriptions (%s)', (mode) => {
  let stack: Stack;
  let token: string;
  /** Distributed: the gateway instance the screen is on (restarted mid-stream); the stack's serves the writes. */
  let screenGateway: ProcessHandle | undefined;
  let screenPorts: { app: number; health: number; metrics: number };

  beforeAll(async () => {
    stack = await startStack(mode);
    token = await mintToken({ tenantId: newTenantId() });
    if (mode === 'distributed') {
      const processes = (stack as Stack & { processes: ProcessHandle[] }).processes;
      const [app, health, metrics] = (await freePorts(3)) as [number, number, number];
      screenPorts = { app, health, metrics };
      screenGateway = await startProcess(
        'gateway#screen',
        'gateway/src/index.ts',
        envOf(processes.at(-1)!),
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
    // Live first (subscribing has no acknowledgement): the first change must reach the screen.
    await setStatus(STATUSES[0]);
    await until(() => screen.received.length === 1, 'the first event');

    const sent: string[] = [STATUSES[0]];
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
              envOf(stopped),
              screenPorts,
            );
          })();
        } else screen.drop();
      }
      const status = STATUSES[i % STATUSES.length]!;
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
