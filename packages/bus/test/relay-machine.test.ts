import { describe, expect, it } from 'vitest';
import {
  initialRelayState,
  nextRelayState,
  type RelayEvent,
  type RelayState,
} from '../src/outbox/relay-machine.js';

const timing = { pollIntervalMs: 10, maxBackoffMs: 35 };

function run(...events: RelayEvent[]): RelayState {
  return events.reduce((state, event) => nextRelayState(state, event, timing), initialRelayState(timing));
}

const failed: RelayEvent = { type: 'roundEnded', failed: true, full: false };
const quiet: RelayEvent = { type: 'roundEnded', failed: false, full: false };

describe('outbox relay state machine', () => {
  it('starts with a round that reads everything, then polls when the round found no more', () => {
    expect(run({ type: 'start' })).toMatchObject({ phase: 'round', kicked: false });
    expect(run({ type: 'start' }, { type: 'roundStarted' }, quiet)).toMatchObject({
      phase: 'polling',
      pauseMs: 10,
    });
  });

  it('runs the next round at once after a full batch or a kick during the round, after writes only when kicked', () => {
    const full = run(
      { type: 'start' },
      { type: 'roundStarted' },
      { type: 'roundEnded', failed: false, full: true },
    );
    expect(full).toMatchObject({ phase: 'round', kicked: false });
    const kicked = run({ type: 'start' }, { type: 'roundStarted' }, { type: 'kick' }, quiet);
    expect(kicked).toMatchObject({ phase: 'round', kicked: true });
    expect(nextRelayState(kicked, { type: 'roundStarted' }, timing).kicked).toBe(false);
  });

  it('a kick ends a poll at once (after writes); the poll running out reads everything', () => {
    const polling = run({ type: 'start' }, { type: 'roundStarted' }, quiet);
    expect(nextRelayState(polling, { type: 'kick' }, timing)).toMatchObject({ phase: 'round', kicked: true });
    expect(nextRelayState(polling, { type: 'pauseEnded' }, timing)).toMatchObject({
      phase: 'round',
      kicked: false,
    });
  });

  it('backs off after failed rounds, doubling the pause up to the cap, ignoring kicks; a success resets it', () => {
    const pauses: number[] = [];
    let state = run({ type: 'start' });
    for (let i = 0; i < 4; i++) {
      state = nextRelayState(state, failed, timing);
      expect(state.phase).toBe('backingOff');
      pauses.push(state.pauseMs);
      expect(nextRelayState(state, { type: 'kick' }, timing)).toEqual(state);
      state = nextRelayState(state, { type: 'pauseEnded' }, timing);
    }
    expect(pauses).toEqual([10, 20, 35, 35]);
    state = nextRelayState(nextRelayState(state, quiet, timing), { type: 'pauseEnded' }, timing);
    expect(nextRelayState(state, failed, timing).pauseMs).toBe(10);
  });

  it('a kick during a failing round is kept for the round after the back-off', () => {
    const state = run({ type: 'start' }, { type: 'roundStarted' }, { type: 'kick' }, failed, {
      type: 'pauseEnded',
    });
    expect(state).toMatchObject({ phase: 'round', kicked: true });
  });

  it('stop is final from every state; nothing happens before start', () => {
    expect(run({ type: 'kick' }, { type: 'pauseEnded' })).toMatchObject({ phase: 'idle' });
    for (const before of [
      [],
      [{ type: 'start' }],
      [{ type: 'start' }, quiet],
      [{ type: 'start' }, failed],
    ] as RelayEvent[][]) {
      const stopped = run(...before, { type: 'stop' });
      expect(stopped.phase).toBe('stopped');
      expect(run(...before, { type: 'stop' }, { type: 'start' }, { type: 'kick' }, quiet).phase).toBe(
        'stopped',
      );
    }
  });
});
