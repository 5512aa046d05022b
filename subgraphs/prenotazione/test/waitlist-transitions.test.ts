import { describe, expect, it } from 'vitest';
import {
  WAITLIST_TRANSITIONS,
  waitlistTransition,
  type StatoAttesa,
} from '../src/waitlist/waitlist-record.js';

describe('waitlist state transitions', () => {
  const states = Object.keys(WAITLIST_TRANSITIONS) as StatoAttesa[];
  const allowed = new Set([
    'waiting>notified',
    'waiting>seated',
    'waiting>left',
    'waiting>cancelled',
    'notified>seated',
    'notified>left',
    'notified>cancelled',
  ]);
  it('covers the five states of the schema', () =>
    expect(states).toEqual(['waiting', 'notified', 'seated', 'left', 'cancelled']));
  for (const from of states) {
    for (const to of states) {
      const expected = from === to ? 'same' : allowed.has(`${from}>${to}`) ? 'allowed' : 'refused';
      it(`${from} → ${to} is ${expected}`, () => expect(waitlistTransition(from, to)).toBe(expected));
    }
  }
});
