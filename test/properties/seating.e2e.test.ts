/**
 * Generated interleavings with the seating operations (combinations, autoAssign bookings, combination bookings,
 * turn-time and re-seating changes, options created / converted / released, waitlist parties added / notified /
 * seated / cancelled) and the seating invariants: no table in two overlapping active bookings or live options
 * (combinations included, windows as stored), an auto-assigned booking's tables fit its party, a manual booking
 * is never moved, options hold their tables and nothing once ended, a waitlist party is seated once with one
 * booking; every default invariant as well. 30 s of programs per mode in `pnpm test` (docs/testing.md).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES } from '../support/modes.js';
import { assertProperty, budget } from './budget.js';
import { seatingProgramArbitrary } from './program.js';
import { checkProgram, newTally, summary } from './property.js';
import { startPropertyStack, type PropertyStack } from './stacks.js';

const plan = budget(process.env, 8_000);

describe.each(MODES)('generated seating interleavings (%s mode)', (mode) => {
  let service: PropertyStack;
  beforeAll(async () => {
    service = await startPropertyStack(mode);
  });
  afterAll(async () => service?.close());

  it(
    'keeps every invariant, seating ones included, under random concurrent programs',
    async () => {
      const tally = newTally();
      const property = fc.asyncProperty(seatingProgramArbitrary, (program) =>
        checkProgram(
          program,
          // Events are waited for up to 20 s (only while some are missing): a loaded machine delays the relay.
          {
            stack: service.stack,
            readAgendas: service.readAgendas,
            ...(service.observe ? { observe: service.observe } : {}),
            seating: true,
            eventWaitMs: 20_000,
          },
          tally,
        ),
      );
      try {
        const programs = await assertProperty(property, plan);
        expect(programs).toBeGreaterThan(0);
      } finally {
        console.info(summary(`seating interleavings ${mode}`, tally));
      }
    },
    plan.testTimeoutMs,
  );
});
