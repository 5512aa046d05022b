import { markArrival } from './arrival-subject.js';
import type { ReplayOptions, ReplayResult } from './types.js';

export interface ReplayLogOptions {
  /** Events kept, oldest dropped first. */
  maxEvents: number;
  /** Events older than this are dropped. */
  maxAgeMs: number;
  /** Clock (tests). Default Date.now. */
  now?: () => number;
}

/** Bounds of the embedded mode's log: a restaurant's evening of events many times over, a few MB at most. */
export const DEFAULT_REPLAY_LOG: ReplayLogOptions = { maxEvents: 10_000, maxAgeMs: 60 * 60_000 };

interface Entry {
  readonly sequence: number;
  readonly subject: string;
  readonly id: string;
  readonly json: string;
  readonly at: number;
}

export interface ReplayLog {
  /** Stores a published event (its JSON), returns its sequence: 1, 2, 3… */
  append(subject: string, id: string, json: string): number;
  replay(subject: string, afterId: string, options: ReplayOptions): ReplayResult;
  /** Events held now. */
  readonly size: number;
  /** The most events it holds. */
  readonly capacity: number;
  /** Events dropped for the bounds so far. */
  readonly evicted: number;
}

/**
 * The in-process bus's bounded log of published events (embedded mode has no JetStream): a ring of at most
 * `maxEvents`, none older than `maxAgeMs`, over every tenant. `replay` scans it for one subject; an id that
 * fell out (or never was on that subject) is `unknown`.
 */
export function createReplayLog(options: ReplayLogOptions): ReplayLog {
  if (!Number.isInteger(options.maxEvents) || options.maxEvents < 1)
    throw new RangeError('maxEvents must be a positive integer');
  const now = options.now ?? Date.now;
  const ring: Array<Entry | undefined> = new Array<Entry | undefined>(options.maxEvents);
  let head = 0; // index of the oldest entry
  let size = 0;
  let sequence = 0;
  let evicted = 0;

  const dropOldest = () => {
    ring[head] = undefined;
    head = (head + 1) % ring.length;
    size--;
    evicted++;
  };
  const dropExpired = (at: number) => {
    while (size > 0 && ring[head]!.at < at - options.maxAgeMs) dropOldest();
  };

  return {
    append(subject, id, json) {
      const at = now();
      dropExpired(at);
      if (size === ring.length) dropOldest();
      sequence++;
      ring[(head + size) % ring.length] = { sequence, subject, id, json, at };
      size++;
      return sequence;
    },
    replay(subject, afterId, { windowMs, maxEvents }) {
      const at = now();
      dropExpired(at);
      const since = at - windowMs;
      let afterSequence: number | undefined;
      const found: Entry[] = [];
      for (let i = 0; i < size; i++) {
        const entry = ring[(head + i) % ring.length]!;
        if (entry.subject !== subject) continue;
        if (afterSequence !== undefined) {
          if (found.length === maxEvents) return { ok: false, reason: 'too-many' };
          found.push(entry);
        } else if (entry.id === afterId && entry.at >= since) afterSequence = entry.sequence;
      }
      if (afterSequence === undefined) return { ok: false, reason: 'unknown' };
      return {
        ok: true,
        afterSequence,
        events: found.map((e) => markArrival(JSON.parse(e.json), e.subject, e.sequence)),
      };
    },
    get size() {
      return size;
    },
    capacity: options.maxEvents,
    get evicted() {
      return evicted;
    },
  };
}
