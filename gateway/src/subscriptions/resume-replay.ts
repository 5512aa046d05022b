import { GraphQLError, type ExecutionResult } from 'graphql';
import { arrivalSequence, arrivalSubject, type CloudEvent, type ReplayResult } from '@coperto/bus';
import { routeEvent } from './event-route.js';
import type { EventStream } from './event-stream.js';
import type { ResumeSeam } from './resume-seam.js';

/** Reads the events stored on a subject after an id (the source bus's `replay`, with the gateway's bounds). */
export type Replayer = (subject: string, afterId: string) => Promise<ReplayResult>;

/** The error code of a subscription that cannot resume: the screen reads the state again instead. */
export const RELOAD_REQUIRED = 'RELOAD_REQUIRED';

type Refusal = 'unknown' | 'too-many' | 'unavailable';

const WHY: Record<Refusal, string> = {
  unknown:
    'it is not among the recent events of this subscription (unknown, or older than the replay window)',
  'too-many': 'more events followed it than a replay gives at once',
  unavailable: 'the event history cannot be read now',
};

/** The result a subscription that cannot resume ends with (graphql-ws sends it as a `next` with errors). */
export function reloadRequired(after: string, reason: Refusal): ExecutionResult {
  return {
    errors: [
      new GraphQLError(
        `Cannot resume after event ${after}: ${WHY[reason]}. Read the current state again and subscribe without after.`,
        { extensions: { code: RELOAD_REQUIRED, reason } },
      ),
    ],
  };
}

export interface ResumeRequest {
  after: string;
  /** The group's source stream: the subject to read and the events it yields. */
  source: EventStream | undefined;
  replay: Replayer | undefined;
  /** The group's execution of one event, serialized as a `next` payload. */
  execute(event: CloudEvent): Promise<string>;
  /** Sends a payload to this member only. */
  deliver(payload: string): void;
  seam: ResumeSeam;
  /** The member left meanwhile. */
  ended(): boolean;
}

/**
 * Delivers to one member what it missed after `after`, in order, then opens its seam to the live events (each
 * once). Only events of the group's own subject (the member's tenant and field) that the group's stream would
 * yield (its filter, e.g. salaId) and whose envelope agrees with their subject (event-route.ts) are sent.
 * Resolves to the refusal when it cannot resume.
 */
export async function resumeMember(request: ResumeRequest): Promise<ExecutionResult | undefined> {
  const { source, replay, after } = request;
  if (!source || !replay) return reloadRequired(after, 'unknown');
  let result: ReplayResult;
  try {
    result = await replay(source.subject, after);
  } catch {
    return reloadRequired(after, 'unavailable');
  }
  if (!result.ok) return reloadRequired(after, result.reason);
  let lastSequence = result.afterSequence;
  const replayedIds: string[] = [];
  for (const event of result.events) {
    if (request.ended()) return undefined;
    lastSequence = Math.max(lastSequence, arrivalSequence(event) ?? lastSequence);
    replayedIds.push(event.id);
    if (!routeEvent(arrivalSubject(event), event).ok || !source.accepts(event)) continue;
    request.deliver(await request.execute(event));
  }
  if (!request.ended()) request.seam.replayed(lastSequence, replayedIds);
  return undefined;
}
