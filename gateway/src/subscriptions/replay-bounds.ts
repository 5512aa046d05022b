import type { EventBus } from '@coperto/bus';
import type { Replayer } from './resume-replay.js';

/** How far back a subscription may resume (`after`): SUBSCRIPTION_REPLAY_WINDOW_MS, SUBSCRIPTION_REPLAY_MAX_EVENTS. */
export interface ReplayBounds {
  /** Only an event stored within this many milliseconds can be resumed from. */
  windowMs: number;
  /**
   * At most this many missed events are replayed at once; more means the screen reloads. Below the socket's
   * pending-event limit (socket-budget.ts), so a replay never cuts its own socket off.
   */
  maxEvents: number;
}

/** Ten minutes (a tablet asleep, a Wi-Fi change, a gateway restart) and a busy room's worth of changes. */
export const DEFAULT_REPLAY_BOUNDS: ReplayBounds = { windowMs: 10 * 60_000, maxEvents: 500 };

/**
 * Replays from the bus the events are stored on (the source bus: NATS JetStream, or embedded mode's in-process
 * log), never from the gateway's own fan-out bus, which stores nothing.
 */
export function replayerOf(bus: EventBus, bounds: ReplayBounds): Replayer {
  return (subject, afterId) => bus.replay(subject, afterId, bounds);
}
