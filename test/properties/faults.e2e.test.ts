/**
 * Generated programs with faults (docs/testing.md): the same concurrent programs as interleavings.e2e.test.ts,
 * while servers and processes are killed and restarted or paused and resumed under them. Distributed: the
 * MongoDB-protocol server (H2 backend, so its data survives), NATS and Redis of this file's own, and the subgraph
 * processes; embedded: the whole service as a child process on a data directory that survives it. One operation
 * in five is a seating one (auto-assigned booking, options, waitlist), judged by the seating invariants too.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES } from '../support/modes.js';
import { assertProperty, budget } from './budget.js';
import { chosenFaults, startFaultStack, type FaultStack } from './fault-stacks.js';
import { faultProgramArbitrary } from './program.js';
import { checkProgram, newTally, summary } from './property.js';

const plan = budget(process.env, 7_000);

export interface FaultPlan {
  target: number;
  /** Injected once this many operations of the program are done (or when it ends). */
  afterSteps: number;
  downMs: number;
}

const faultPlanArbitrary = (targets: number) =>
  fc.array(
    fc.record({
      target: fc.nat(targets - 1),
      afterSteps: fc.nat(12),
      downMs: fc.constantFrom(200, 1000, 3000),
    }),
    { minLength: 1, maxLength: 2 },
  );

describe.each(MODES)('generated programs under faults (%s mode)', (mode) => {
  let service: FaultStack;
  beforeAll(async () => {
    service = await startFaultStack(mode);
  });
  afterAll(async () => service?.close());

  it(
    'keeps every invariant while servers and processes die and come back',
    async () => {
      const tally = newTally();
      const injectable = chosenFaults(service.faults, process.env.TORTURE_FAULTS);
      const property = fc.asyncProperty(
        faultProgramArbitrary,
        faultPlanArbitrary(injectable.length),
        (program, faults) =>
          checkProgram(
            program,
            {
              stack: service.stack,
              readAgendas: service.readAgendas,
              ...(service.observe ? { observe: service.observe } : { eventsObservable: false }),
              eventWaitMs: 20_000,
              faults: true,
              seating: true,
              alongside: async (progress) => {
                for (const fault of faults) {
                  while (progress.stepsDone() < fault.afterSteps && !progress.finished()) {
                    await new Promise((r) => setTimeout(r, 5));
                  }
                  const target = injectable[fault.target]!;
                  const healed = progress.faultStarted();
                  await target.inject();
                  tally.faults++;
                  try {
                    await new Promise((r) => setTimeout(r, fault.downMs));
                  } finally {
                    await target.heal();
                    healed();
                  }
                }
              },
            },
            tally,
          ),
      );
      try {
        const programs = await assertProperty(property, plan);
        expect(programs).toBeGreaterThan(0);
      } finally {
        console.info(summary(`faults ${mode}`, tally));
      }
    },
    plan.testTimeoutMs,
  );
});
