/**
 * Generated payments programs (issue 38's "Done when"; docs/payments.md, docs/reminders.md): each program, in a
 * tenant of its own, books parties a policy guarantees or not, changes the policy, delivers Stripe events for the
 * bookings' intents (repeated, at once, held back and delivered reordered or after the booking ended, badly
 * signed, failed attempts, events of another mode), confirms, moves, cancels, marks no-shows and completions, and
 * moves the clock forward: the suite's stack runs on a virtual clock (payments-stack.ts, a test-only preload in its
 * processes), so guarantees' due times (10 or 30 minutes) and one-hour reminders fall due within a program. Then
 * every invariant of payments-invariants.ts is checked on the recorded history, in both modes, with the requests
 * the service made to Stripe. A failure shrinks to a minimal program and prints the seed that replays it.
 *
 * The stacks are the suite's own (a clock of their own): programs run one after another, since they share it.
 */
import fc from 'fast-check';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES, SHARED_STACK_ENV, sharedMailpit } from '../support/modes.js';
import { assertProperty, budget } from './budget.js';
import { describeHistory, describeTally, tallyInto, type PayTally } from './payments-history.js';
import { paymentViolations } from './payments-invariants.js';
import { payProgramArbitrary, type PayProgram } from './payments-program.js';
import { runPayProgram, type PayWorld } from './payments-runner.js';
import { startPaymentsStack, type PaymentsStack } from './payments-stack.js';

const plan = budget(process.env, 5_000);
const signer = new Stripe(SHARED_STACK_ENV.STRIPE_SECRET_KEY);

async function check(world: PayWorld, program: PayProgram, tally: PayTally): Promise<void> {
  const history = await runPayProgram(world, program);
  tallyInto(tally, history);
  const violations = paymentViolations(history);
  if (violations.length > 0) throw new Error(`${violations.join('\n')}\n${describeHistory(history)}`);
}

describe.each(MODES)('generated payments and reminders (%s mode)', (mode) => {
  let service: PaymentsStack;
  let world: PayWorld;
  beforeAll(async () => {
    service = await startPaymentsStack(mode);
    world = {
      stack: service.stack,
      clock: service.clock,
      stripe: service.stripe,
      observe: service.observe,
      mailpit: await sharedMailpit(),
      webhookSecret: SHARED_STACK_ENV.STRIPE_WEBHOOK_SECRET,
      signer,
    };
  }, 120_000);
  afterAll(async () => service?.close());

  it(
    'keeps money, guarantees and reminders right under random programs and clock advances',
    async () => {
      const tally: PayTally = new Map();
      const property = fc.asyncProperty(payProgramArbitrary, (program) => check(world, program, tally));
      const runs = await assertProperty(property, plan);
      console.info(`[props] payments ${mode}: ${describeTally(tally)}`);
      expect(runs).toBeGreaterThan(0);
      // Every request the service made to Stripe was one Stripe's API description accepts.
      expect(service.stripe.refusals()).toEqual([]);
    },
    plan.testTimeoutMs,
  );
});
