import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  mailpitClient,
  serverUrls,
  sharedMailpitUrls,
  stripeMockUrl,
  uniqueName,
  type MailpitClient,
} from '@coperto/testkit';
import {
  startDistributed,
  startEmbedded,
  type DistributedStack,
  type EmbeddedStack,
  type Mode,
  type Stack,
} from './stack.js';

/** The run modes every e2e file covers (both are first-class). */
export const MODES: readonly Mode[] = ['embedded', 'distributed'];

/**
 * The stack of each mode with the default settings, started once per test process and shared by every e2e file
 * that asks for it (the e2e project runs its files one after another in one process: vitest.config.ts). Starting
 * stacks was two thirds of the e2e project's time (measured: 917 of 1,393 file-seconds went to `beforeAll`), and
 * every file works in tenants of its own (`newTenantId()`), as on a shared deployment: tenant isolation is what
 * keeps the files apart. `close()` on a shared stack does nothing; the end of the process ends it. A file that
 * needs settings of its own, or stops, kills or restarts processes, starts its own stack (stack.ts).
 */
let embedded: Promise<EmbeddedStack> | undefined;

/**
 * Settings every shared stack runs with beside stack.ts's defaults: the partner credentials Google's booking
 * server asks for, Stripe pointed at the suite's stripe-mock with a webhook signing secret (secrets made for
 * this process, never written anywhere), and webhooks allowed to the tests' loopback receivers.
 */
export const SHARED_STACK_ENV = {
  GOOGLE_BOOKING_USER: 'google-partner',
  GOOGLE_BOOKING_PASSWORD: randomBytes(18).toString('base64url'),
  STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}`,
  STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  STRIPE_PUBLISHABLE_KEY: `pk_test_${randomBytes(12).toString('hex')}`,
  // Webhook endpoints on this machine (the tests' receivers listen on loopback).
  WEBHOOKS_ALLOW_PRIVATE: 'true',
} as const;

/** The SMTP server (mailpit) every shared stack sends its emails through: the global setup's, stopped by its teardown. */
export function sharedMailpit(): Promise<MailpitClient> {
  return Promise.resolve(mailpitClient(sharedMailpitUrls()));
}

/** SHARED_STACK_ENV, and the stripe-mock and mailpit the global setup started. */
const sharedStackEnv = async () => ({
  ...SHARED_STACK_ENV,
  STRIPE_API_BASE: stripeMockUrl(),
  SMTP_URL: (await sharedMailpit()).smtpUrl,
  SMTP_FROM: '"Trattoria di prova" <prenotazioni@coperto.test>',
});
let distributed: Promise<DistributedStack> | undefined;

export function sharedEmbedded(): Promise<EmbeddedStack> {
  embedded ??= kept(
    sharedStackEnv()
      .then(startEmbedded)
      .then((stack) => {
        process.once('exit', () => rmSync(stack.dataDir, { recursive: true, force: true }));
        return stack;
      }),
    () => (embedded = undefined),
  );
  return embedded;
}

export function sharedDistributed(): Promise<DistributedStack> {
  const { mongoUrl, natsUrl, redisUrl } = serverUrls();
  // Its processes are killed when this process exits (killOnExit in stack.ts).
  distributed ??= kept(
    sharedStackEnv().then((extraEnv) =>
      startDistributed({ mongoUrl, natsUrl, redisUrl, database: uniqueName('e2e'), extraEnv }),
    ),
    () => (distributed = undefined),
  );
  return distributed;
}

/**
 * Distributed mode with gateway settings of the file's own: a gateway process with `extraEnv` in front of the shared
 * stack's subgraphs (`withGateway`), instead of a whole stack. `close()` stops that gateway.
 */
export async function sharedDistributedGateway(extraEnv: Record<string, string>): Promise<DistributedStack> {
  return (await sharedDistributed()).withGateway(extraEnv);
}

export function startStack(mode: Mode): Promise<Stack> {
  return mode === 'embedded' ? sharedEmbedded() : sharedDistributed();
}

/** The started stack with a `close()` that leaves it running; a failed start is forgotten (the next file retries). */
function kept<S extends Stack>(starting: Promise<S>, forget: () => void): Promise<S> {
  return starting.then(
    (stack) => ({ ...stack, close: async () => {} }),
    (error: unknown) => {
      forget();
      throw error;
    },
  );
}
