/**
 * Generated payments programs (issue 38's "Done when"; docs/payments.md, docs/reminders.md): each program, in a
 * tenant of its own, books parties a policy guarantees or not, changes the policy, delivers Stripe events for the
 * bookings' intents (repeated, at once, held back and delivered reordered or after the booking ended, badly
 * signed, failed attempts, events of another mode), confirms, moves, cancels, marks no-shows and completions, and
 * lets the clock run so that one-hour reminders fall due within the run (bookings start an hour and a few seconds
 * ahead: no test clock in the service). Then every invariant of payments-invariants.ts is checked on the recorded
 * history, in both modes. A failure shrinks to a minimal program and prints the seed that replays it.
 *
 * Not reachable from outside within a run: a guarantee's due time (at least 10 minutes after it is asked for) —
 * its cancellation is covered in subgraphs/garanzie/test/guarantees.integration.test.ts with the scheduler driven.
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
import { startPropertyStack, type PropertyStack } from './stacks.js';

const plan = budget(process.env, 15_000);
const signer = new Stripe(SHARED_STACK_ENV.STRIPE_SECRET_KEY);

/** Programs run side by side (each in its own tenant): most of a program's time is waiting for its clock. */
const SIDE_BY_SIDE = 2;

async function check(world: PayWorld, programs: PayProgram[], tally: PayTally): Promise<void> {
  const histories = await Promise.all(programs.map((program) => runPayProgram(world, program)));
  for (const history of histories) {
    tallyInto(tally, history);
    const violations = paymentViolations(history);
    if (violations.length > 0) throw new Error(`${violations.join('\n')}\n${describeHistory(history)}`);
  }
}

describe.each(MODES)('generated payments and reminders (%s mode)', (mode) => {
  let service: PropertyStack;
  let world: PayWorld;
  beforeAll(async () => {
    service = await startPropertyStack(mode);
    const { stack } = service;
    world = {
      stack,
      observe: service.observe ?? (async (subject) => stack.events(subject)),
      mailpit: await sharedMailpit(),
      webhookSecret: SHARED_STACK_ENV.STRIPE_WEBHOOK_SECRET,
      signer,
    };
  });
  afterAll(async () => service?.close());

  it(
    'keeps money, guarantees and reminders right under random programs',
    async () => {
      const tally: PayTally = new Map();
      const programs = fc.array(payProgramArbitrary, { minLength: SIDE_BY_SIDE, maxLength: SIDE_BY_SIDE });
      const property = fc.asyncProperty(programs, (side) => check(world, side, tally));
      const runs = await assertProperty(property, plan);
      console.info(`[props] payments ${mode}: ${describeTally(tally)}`);
      expect(runs).toBeGreaterThan(0);
    },
    plan.testTimeoutMs,
  );
});
