import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTokenVerifier } from '@coperto/auth';
import { createMemoryBus } from '@coperto/bus';
import { createLogger } from '@coperto/server-kit';
import { TEST_JWT_SECRET } from '@coperto/testkit';
import type { SocketLimits } from '../../src/subscriptions/socket-budget.js';
import type { Executor } from '../../src/subscriptions/subscription-groups.js';
import { createSubscriptionServer, type SubscriptionServer } from '../../src/subscriptions/ws-server.js';
import { countingBus, type CountingBus } from './counting-bus.js';

/** The subscription server alone, on an ephemeral loopback port, over a MemoryBus. */
export interface SubscriptionHarness {
  /** `ws://127.0.0.1:<port>/graphql` */
  url: string;
  server: SubscriptionServer;
  bus: CountingBus;
  close(): Promise<void>;
}

export async function startSubscriptionHarness(
  options: { limits?: Partial<SocketLimits>; introspection?: boolean; execute?: Executor } = {},
): Promise<SubscriptionHarness> {
  const httpServer = createServer((_req, res) => res.writeHead(404).end());
  const memory = createMemoryBus();
  const bus = countingBus(memory);
  const server = createSubscriptionServer({
    httpServer,
    bus: bus.bus,
    verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
    logger: createLogger({ name: 'subscriptions-test', level: 'silent' }),
    introspection: options.introspection ?? false,
    maxPayloadBytes: 64 * 1024,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.execute ? { execute: options.execute } : {}),
    closeGraceMs: 200,
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    server,
    bus,
    async close() {
      await server.close();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await memory.close();
    },
  };
}
