/**
 * Generated interleavings (docs/testing.md): random programs of concurrent operations from several devices of two
 * tenants, run against the real service in both modes; every invariant is checked on the recorded history, the
 * events and the state read back. A failure shrinks to a minimal program and prints the seed that replays it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES } from '../support/modes.js';
import { assertProperty, budget } from './budget.js';
import { programArbitrary } from './program.js';
import { checkProgram, newTally, summary } from './property.js';
import { startPropertyStack, type PropertyStack } from './stacks.js';

const plan = budget(process.env, 8_000);

describe.each(MODES)('generated interleavings (%s mode)', (mode) => {
  let service: PropertyStack;
  beforeAll(async () => {
    service = await startPropertyStack(mode);
  });
  afterAll(async () => service?.close());

  it(
    'keeps every invariant under random concurrent programs of two tenants',
    async () => {
      const tally = newTally();
      const property = fc.asyncProperty(programArbitrary, (program) =>
        checkProgram(
          program,
          {
            stack: service.stack,
            readAgendas: service.readAgendas,
            ...(service.observe ? { observe: service.observe } : {}),
          },
          tally,
        ),
      );
      const programs = await assertProperty(property, plan);
      console.info(summary(`interleavings ${mode}`, tally));
      expect(programs).toBeGreaterThan(0);
    },
    plan.testTimeoutMs,
  );
});
