// Two webhooks instances sharing the store and the durable consumer, under a generated program of receiver up,
// down and failing, an instance killed (and started again), a rotation and bursts of events. Whatever the program:
// every event reaches the receiver with a signature that verifies (standardwebhooks), and no delivery is ever sent
// by two instances at once (the receiver sees no webhook-id twice in flight). Bounded runs: FC_RUNS (default 3).
//
// A kill strikes once the events published so far are taken in (each has its delivery): it kills the delivery side,
// mid-attempt and holding leases. A kill at any moment can also catch events the dying instance's consumer had
// pulled from JetStream and not handled: the server hands them out again after its 30 s ack wait (the bus's
// guarantee, tested in packages/bus), so such runs take 30 s more: RACE_KILL_ANYTIME=1 RACE_WAIT=45000 runs them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import { mintToken, newTenantId, uniqueName } from '@coperto/testkit';
import type { WebhooksTuning } from '../src/subgraph.js';
import { startInstance, type Instance } from './support/instance.js';
import { CREATE, DELIVERIES, ROTATE, type DeliveryAnswer, type WebhookAnswer } from './support/operations.js';
import { startReceiver } from './support/receiver.js';

// Attempts every 200 ms for 8 s: longer than a killed instance's lease, so nothing fails for good in a run.
const TUNING: WebhooksTuning = {
  waits: Array<number>(40).fill(200),
  pollMs: 30,
  leaseMs: 1500,
  attemptTimeoutMs: 500,
};

type Step =
  | { kind: 'publish'; count: number }
  | { kind: 'receiver'; mode: 'up' | 'down' | 'failing' }
  | { kind: 'kill'; which: 0 | 1 }
  | { kind: 'rotate' }
  | { kind: 'pause'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('publish' as const), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constant('receiver' as const),
    mode: fc.constantFrom('up' as const, 'down' as const, 'failing' as const),
  }),
  fc.record({ kind: fc.constant('kill' as const), which: fc.constantFrom(0 as const, 1 as const) }),
  fc.record({ kind: fc.constant('rotate' as const) }),
  fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 0, max: 150 }) }),
);

/** Waits until every event published so far has its delivery (the consumer took it in). */
const takenIn = (instance: Instance, admin: string, id: string, count: number) =>
  vi.waitFor(
    async () => {
      const { consegneWebhook } = await instance.run<{ consegneWebhook: DeliveryAnswer[] }>(
        DELIVERIES,
        { id },
        admin,
      );
      expect(consegneWebhook).toHaveLength(count);
    },
    { timeout: 10_000, interval: 20 },
  );

describe('two delivery instances under failures', () => {
  const database = uniqueName('webhooks_race');
  const instances: Instance[] = [];
  const start = () => startInstance({ database, tuning: TUNING });

  beforeAll(async () => {
    instances.push(await start(), await start());
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
  });

  it('delivers every event, signed, and never sends one delivery from two instances at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (program) => {
        const receiver = await startReceiver();
        receiver.holdMs = 20;
        const tenant = newTenantId();
        const admin = await mintToken({ tenantId: tenant, admin: true });
        const { createWebhook } = await instances[0]!.run<{ createWebhook: WebhookAnswer }>(
          CREATE,
          { input: { url: receiver.url } },
          admin,
        );
        receiver.secrets.push(createWebhook.secret!);
        const published: string[] = [];
        try {
          for (const s of program) {
            if (s.kind === 'publish')
              for (let i = 0; i < s.count; i++) {
                const { message, event } = buildEvent({
                  tenantId: trustedTenantId(tenant),
                  type: 'bookings.created',
                  source: '/test/webhooks',
                  subject: `b${published.length}`,
                  data: { n: published.length },
                });
                await instances[i % 2]!.bus.publish(message.subject, event);
                published.push(event.id);
              }
            else if (s.kind === 'receiver') await receiver.setMode(s.mode);
            else if (s.kind === 'kill') {
              if (!process.env.RACE_KILL_ANYTIME)
                await takenIn(instances[0]!, admin, createWebhook.id, published.length);
              await instances[s.which]!.kill();
              instances[s.which] = await start();
            } else if (s.kind === 'rotate') {
              const { ruotaSegretoWebhook } = await instances[0]!.run<{ ruotaSegretoWebhook: WebhookAnswer }>(
                ROTATE,
                { id: createWebhook.id },
                admin,
              );
              receiver.secrets.push(ruotaSegretoWebhook.secret!);
            } else await new Promise((r) => setTimeout(r, s.ms));
          }
          await receiver.setMode('up');
          await vi.waitFor(() => expect(receiver.delivered()).toEqual(new Set(published)), {
            timeout: Number(process.env.RACE_WAIT ?? 20_000),
            interval: 50,
          });
          expect(receiver.overlaps).toEqual([]);
          for (const r of receiver.received) expect(r.verifiedWith, r.id).not.toEqual([]);
        } finally {
          await receiver.close();
        }
      }),
      {
        numRuns: Number(process.env.FC_RUNS ?? 3),
        endOnFailure: true,
        ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}),
      },
    );
  });
});
