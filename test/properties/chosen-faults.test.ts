import { describe, expect, it } from 'vitest';
import { chosenFaults, type Fault } from './fault-stacks.js';

const fault = (name: string): Fault => ({ name, inject: async () => {}, heal: async () => {} });
const all = ['kill mongo', 'pause mongo', 'kill nats', 'kill subgraph tavolo'].map(fault);

describe('chosenFaults (TORTURE_FAULTS)', () => {
  it('keeps every fault when unset or blank', () => {
    expect(chosenFaults(all, undefined)).toEqual(all);
    expect(chosenFaults(all, ' , ')).toEqual(all);
  });
  it('keeps the faults whose names contain one of the parts, in their order', () => {
    expect(chosenFaults(all, 'kill mongo').map((f) => f.name)).toEqual(['kill mongo']);
    expect(chosenFaults(all, 'mongo, tavolo').map((f) => f.name)).toEqual([
      'kill mongo',
      'pause mongo',
      'kill subgraph tavolo',
    ]);
  });
  it('refuses a setting that names no fault', () => {
    expect(() => chosenFaults(all, 'kill postgres')).toThrow(/names none of: kill mongo/);
  });
});
