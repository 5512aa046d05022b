import { arrivalSequence, type CloudEvent } from '@coperto/bus';

/**
 * The seam between a resuming member's replay and the group's live events (pure). Live events that reach the
 * member while its replay runs wait; once the replay is delivered, those the replay already held are dropped and
 * the rest go out in order, and so are later live events the replay held (a gateway's feed may lag behind the
 * stream the replay read). "Held" is decided by the bus's store sequence (`arrivalSequence`: the stream's, or
 * the in-process log's), which the feed and the replay share; an event without one is compared by id.
 */
export interface ResumeSeam {
  /** A live event for the member: delivered now, later, or never (the replay had it). */
  live(payload: string, event: CloudEvent): void;
  /** The replay is delivered: everything after `lastSequence` (and not among `replayedIds`) is new. */
  replayed(lastSequence: number, replayedIds: readonly string[]): void;
}

export function createResumeSeam(deliver: (payload: string) => void): ResumeSeam {
  let waiting: Array<{ payload: string; event: CloudEvent }> | undefined = [];
  let last = Number.POSITIVE_INFINITY;
  let ids = new Set<string>();

  const isNew = (event: CloudEvent) => {
    const sequence = arrivalSequence(event);
    return sequence === undefined ? !ids.has(event.id) : sequence > last;
  };

  return {
    live(payload, event) {
      if (waiting) waiting.push({ payload, event });
      else if (isNew(event)) deliver(payload);
    },
    replayed(lastSequence, replayedIds) {
      last = lastSequence;
      ids = new Set(replayedIds);
      const held = waiting ?? [];
      waiting = undefined;
      for (const { payload, event } of held) if (isNew(event)) deliver(payload);
    },
  };
}
