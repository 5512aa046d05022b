/**
 * The outbox relay's loop as one state machine: its states, the events that move it, and nothing else (pure; the
 * relay runs what each state says). See the protocol note in packages/bus/README.md.
 *
 * | state        | what the relay does                         | kick                       | stop    |
 * | ------------ | ------------------------------------------- | -------------------------- | ------- |
 * | `idle`       | nothing (not started)                       | ignored                    | stopped |
 * | `round`      | one round: claim, publish, queue the ack    | `kicked` (another at once) | stopped |
 * | `polling`    | waits `pollIntervalMs`, then a round        | a round at once (woken)    | stopped |
 * | `backingOff` | waits `pauseMs` after failures, then a round| ignored                    | stopped |
 * | `stopped`    | nothing, for good                           | ignored                    | stopped |
 *
 * A round ends `failed` (the store or the bus failed, or an acknowledgement since the last round did: back off,
 * the pause doubling up to `maxBackoffMs`), `full` (it claimed a whole batch: more may wait, so another round at
 * once), or neither (another round at once when kicked meanwhile, else poll). `kicked` is what the next round
 * passes as `afterWrites`: a round after writes may read only what this process wrote.
 */
export type RelayPhase = 'idle' | 'round' | 'polling' | 'backingOff' | 'stopped';

export interface RelayState {
  readonly phase: RelayPhase;
  /** A write (or an acknowledgement that released a record with events left) asked for a round. */
  readonly kicked: boolean;
  /** The length of the pause `polling` or `backingOff` waits. */
  readonly pauseMs: number;
  /** The pause after the next failed round. */
  readonly backoffMs: number;
}

export type RelayEvent =
  | { type: 'start' }
  | { type: 'kick' }
  | { type: 'roundStarted' }
  | { type: 'roundEnded'; failed: boolean; full: boolean }
  | { type: 'pauseEnded' }
  | { type: 'stop' };

export interface RelayTiming {
  pollIntervalMs: number;
  maxBackoffMs: number;
}

export function initialRelayState(timing: RelayTiming): RelayState {
  return { phase: 'idle', kicked: false, pauseMs: 0, backoffMs: timing.pollIntervalMs };
}

/** Whether the state waits for a pause to end (a kick that leaves it must cut the pause short). */
export function isPause(phase: RelayPhase): boolean {
  return phase === 'polling' || phase === 'backingOff';
}

export function nextRelayState(state: RelayState, event: RelayEvent, timing: RelayTiming): RelayState {
  if (event.type === 'stop' || state.phase === 'stopped') return { ...state, phase: 'stopped' };
  switch (state.phase) {
    case 'idle':
      return event.type === 'start' ? { ...state, phase: 'round' } : state;
    case 'round':
      if (event.type === 'kick') return { ...state, kicked: true };
      if (event.type === 'roundStarted') return { ...state, kicked: false };
      if (event.type !== 'roundEnded') return state;
      if (event.failed) {
        const backoffMs = Math.min(state.backoffMs * 2, timing.maxBackoffMs);
        return { ...state, phase: 'backingOff', pauseMs: state.backoffMs, backoffMs };
      }
      return {
        ...state,
        phase: event.full || state.kicked ? 'round' : 'polling',
        pauseMs: timing.pollIntervalMs,
        backoffMs: timing.pollIntervalMs,
      };
    case 'polling':
      if (event.type === 'kick') return { ...state, phase: 'round', kicked: true };
      return event.type === 'pauseEnded' ? { ...state, phase: 'round' } : state;
    case 'backingOff':
      // Kicks are ignored while backing off: only stop() cuts the pause short.
      return event.type === 'pauseEnded' ? { ...state, phase: 'round' } : state;
  }
}
