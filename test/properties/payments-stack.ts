/**
 * The payments suite's own stack, in either mode, on a virtual clock (packages/testkit virtual-clock.ts, a
 * test-only preload in each of its processes): the suite moves time forward by minutes or hours, so that guarantees'
 * due times and reminders fall due within a run. Embedded mode runs as a child process (gateway/src/index.ts: the
 * clock is that process's), distributed mode as every subgraph and the gateway in processes of their own against
 * the run's servers. Stripe calls pass through a watch of the suite's own that keeps every request (the record of
 * what the service asked Stripe to charge), in front of the run's stripe-mock. The schedulers look for due work
 * every 100 ms (their settings), so a moved clock is acted on at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNatsBus } from '@coperto/bus';
import {
  createVirtualClock,
  serverUrls,
  stripeMockUrl,
  uniqueName,
  watchStripeMock,
  type StripeMockWatch,
  type VirtualClock,
} from '@coperto/testkit';
import { createApi, createGraphQL } from '../support/http.js';
import { SHARED_STACK_ENV, sharedMailpit } from '../support/modes.js';
import {
  collectorOf,
  startDistributed,
  startProcess,
  type EventCollector,
  type Mode,
  type Stack,
} from '../support/stack.js';

export interface PaymentsStack {
  stack: Stack;
  clock: VirtualClock;
  stripe: StripeMockWatch;
  /** Events of a subject (distributed: gap-free, JetStream); null in embedded mode (the bus is the child's). */
  observe: ((subject: string) => Promise<EventCollector>) | null;
  close(): Promise<void>;
}

/** How often the reminder and due-time schedulers look for due work in the suite's stack. */
const POLL_MS = '100';

/**
 * The subgraphs a program's requests reach (bookings, their tables and capacity, guarantees, reminders): a stack of
 * the suite's own starts only these (a subgraph process is seconds of start on a loaded machine).
 */
const PAYMENT_SUBGRAPHS = ['tavolo', 'sala', 'prenotazione', 'capacity', 'garanzie', 'promemoria'] as const;

export async function startPaymentsStack(mode: Mode): Promise<PaymentsStack> {
  const clock = createVirtualClock();
  const stripe = await watchStripeMock(stripeMockUrl(), { keepRequests: true });
  const env = {
    ...SHARED_STACK_ENV,
    ...clock.env,
    STRIPE_API_BASE: stripe.url,
    SMTP_URL: (await sharedMailpit()).smtpUrl,
    SMTP_FROM: '"Trattoria di prova" <prenotazioni@coperto.test>',
    REMINDERS_POLL_MS: POLL_MS,
    GUARANTEES_POLL_MS: POLL_MS,
  };
  const closeAround = async (inner: () => Promise<void>) => {
    await inner();
    await stripe.stop();
    clock.close();
  };
  try {
    if (mode === 'embedded') {
      const dataDir = mkdtempSync(join(tmpdir(), 'coperto-pay-'));
      const handle = await startProcess('embedded', 'gateway/src/index.ts', {
        ...env,
        COPERTO_MODE: 'embedded',
        DATA_DIR: dataDir,
      });
      const baseUrl = `http://127.0.0.1:${handle.port}`;
      const stack: Stack = {
        mode,
        baseUrl,
        healthUrl: `http://127.0.0.1:${handle.healthPort}`,
        metricsUrl: `http://127.0.0.1:${handle.metricsPort}/metrics`,
        api: createApi(baseUrl),
        graphql: createGraphQL(baseUrl),
        events: () => ({ received: [], waitFor: async () => [], stop: () => {} }),
        close: async () => {
          await handle.stop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
      return { stack, clock, stripe, observe: null, close: () => closeAround(stack.close) };
    }
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    const stack = await startDistributed({
      mongoUrl,
      natsUrl,
      redisUrl,
      database: uniqueName('pay'),
      only: PAYMENT_SUBGRAPHS,
      extraEnv: env,
    });
    const observer = await connectNatsBus({ url: natsUrl, name: uniqueName('pay-observer') });
    return {
      stack,
      clock,
      stripe,
      observe: async (subject) => collectorOf(subject, await observer.follow(subject)),
      close: () =>
        closeAround(async () => {
          await observer.close().catch(() => {});
          await stack.close();
        }),
    };
  } catch (error) {
    await stripe.stop();
    clock.close();
    throw error;
  }
}
