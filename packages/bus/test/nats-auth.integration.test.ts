import { trustedTenantId } from '@coperto/auth';
import { startNatsServer, uniqueName, type TestServer } from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusUnavailableError } from '../src/errors.js';
import { buildEvent } from '../src/events.js';
import { connectNatsBus } from '../src/nats-bus.js';
import type { EventBus } from '../src/types.js';

const USER = 'coperto';
const PASSWORD = 'pa:ss@w/rd';

/** Publishes one event and reads it back: the connection works end to end (JetStream included). */
async function roundTrip(bus: EventBus): Promise<void> {
  const { message, event } = buildEvent({
    tenantId: trustedTenantId(uniqueName('auth')),
    type: 'tables.status',
    source: '/test/nats-auth',
    subject: 'r1',
    data: {},
  });
  const sub = bus.subscribe(message.subject);
  await bus.publish(message.subject, event);
  for await (const received of sub) {
    expect(received.id).toBe(event.id);
    break;
  }
}

describe('NATS bus against a server that requires credentials', () => {
  let server: TestServer;
  const buses: EventBus[] = [];
  const open = async (...args: Parameters<typeof connectNatsBus>) => {
    const bus = await connectNatsBus(...args);
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    server = await startNatsServer({ auth: { user: USER, password: PASSWORD } });
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await server?.stop();
  });

  it('connects with the user and password in the URL', async () => {
    const url = server.url.replace('nats://', `nats://${USER}:${encodeURIComponent(PASSWORD)}@`);
    await roundTrip(await open({ url, name: 'auth-url', setupTimeoutMs: 5000 }));
  });

  it('connects with explicit user and password (NATS_USER / NATS_PASSWORD)', async () => {
    await roundTrip(await open({ url: server.url, user: USER, password: PASSWORD, name: 'auth-explicit' }));
  });

  it.each([
    ['no credentials', {}],
    ['a wrong password', { user: USER, password: 'wrong' }],
  ])('refuses %s with a clear BusUnavailableError that does not contain the secret', async (_what, creds) => {
    const error = await connectNatsBus({ url: server.url, name: 'auth-none', ...creds }).then(
      async (bus) => {
        await bus.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BusUnavailableError);
    expect((error as Error).message).toMatch(/NATS refused the credentials/);
    expect((error as Error).message).not.toContain(PASSWORD);
  });
});

describe('NATS bus against a server that requires a token', () => {
  let server: TestServer;
  let bus: EventBus | undefined;
  beforeAll(async () => {
    server = await startNatsServer({ auth: { token: 's3cret-token' } });
  });
  afterAll(async () => {
    await bus?.close();
    await server?.stop();
  });

  it('connects with the token in the URL and refuses a wrong one', async () => {
    bus = await connectNatsBus({ url: server.url.replace('nats://', 'nats://s3cret-token@'), name: 'token' });
    await roundTrip(bus);
    await expect(connectNatsBus({ url: server.url, token: 'wrong', name: 'token-bad' })).rejects.toThrow(
      BusUnavailableError,
    );
  });
});
