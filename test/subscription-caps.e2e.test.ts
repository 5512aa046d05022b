// Socket caps of the subscription server through the public port, in both modes: a tenant past
// SUBSCRIPTION_MAX_SOCKETS_PER_TENANT is refused with 4430 while other tenants still connect, and a gateway
// holding SUBSCRIPTION_MAX_SOCKETS refuses everyone with 4503. Small caps via the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId } from '@coperto/testkit';
import { graphqlWsClient, rawSubscriber, type RawSubscriber } from '../gateway/test/support/ws-clients.js';
import { MODES, sharedDistributedGateway } from './support/modes.js';
import { startEmbedded, type Mode, type Stack } from './support/stack.js';

const CAPS = { SUBSCRIPTION_MAX_SOCKETS_PER_TENANT: '2', SUBSCRIPTION_MAX_SOCKETS: '4' };
const TABLES = `subscription { tableStatusChanged { id } }`;

function startWithCaps(mode: Mode): Promise<Stack> {
  if (mode === 'embedded') return startEmbedded(CAPS);
  return sharedDistributedGateway(CAPS);
}

describe.each(MODES)('subscription socket caps (%s mode)', (mode) => {
  let stack: Stack;
  let url: string;
  const sockets: RawSubscriber[] = [];
  const disposers: Array<() => unknown> = [];

  beforeAll(async () => {
    stack = await startWithCaps(mode);
    url = `${stack.baseUrl.replace(/^http/, 'ws')}/graphql`;
  });
  afterAll(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
    for (const socket of sockets.splice(0)) socket.terminate();
    await stack?.close();
  });

  const open = async (token: string) => {
    const socket = await rawSubscriber(url, bearer(token));
    sockets.push(socket);
    return socket;
  };
  /** A graphql-ws client that subscribes at once: how it was closed. */
  const refused = (token: string) => {
    const client = graphqlWsClient(url, bearer(token));
    disposers.push(() => client.dispose());
    client.subscribe({ query: TABLES }, { next: () => {}, error: () => {}, complete: () => {} });
    return client.closed;
  };
  const tokenOf = async () => mintToken({ tenantId: newTenantId() });

  it('refuses a third socket of one tenant with 4430 while another tenant connects; a freed slot admits again', async () => {
    const [alpha, beta] = [await tokenOf(), await tokenOf()];
    const first = await open(alpha);
    await open(alpha);
    expect(await refused(alpha)).toEqual({ code: 4430, reason: 'Too many connections for this tenant' });
    await open(beta);

    first.terminate();
    expect(await first.closed).toMatchObject({ code: 1006 });
    // The server counts the socket out when it sees it close: retry until it has.
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await open(alpha);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });

  it('refuses every tenant with 4503 once the gateway holds SUBSCRIPTION_MAX_SOCKETS sockets', async () => {
    // The first test left 3 sockets open (alpha 2, beta 1): one more reaches the cap of 4.
    await open(await tokenOf());
    expect(await refused(await tokenOf())).toEqual({ code: 4503, reason: 'Too many connections' });
  });
});
