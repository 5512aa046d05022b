import { DeliverPolicy, NatsError, type JetStreamClient, type JetStreamManager } from 'nats';
import { markArrival } from './arrival-subject.js';
import { decodeEvent } from './codec.js';
import type { CloudEvent, ReplayOptions, ReplayResult } from './types.js';

/** Messages asked for per pull while scanning the window. */
const BATCH = 256;
/** A pull that gets nothing for this long ends the scan (the window's messages were removed meanwhile). */
const PULL_EXPIRES_MS = 2000;

/**
 * Reads one subject of the JetStream stream from `windowMs` ago up to its last message (known before the scan
 * starts, so the scan ends), looking for the event `afterId` and keeping the events after it. An ordered
 * consumer filtered on the subject: the server sends only that subject's messages (one tenant's, one type's).
 */
export async function replayFromStream(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  afterId: string,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const since = Date.now() - options.windowMs;
  const last = await lastMessage(jsm, stream, subject);
  if (last === undefined || last.time.getTime() < since) return { ok: false, reason: 'unknown' };

  const consumer = await js.consumers.get(stream, {
    filterSubjects: subject,
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: new Date(since).toISOString(),
  });
  let afterSequence: number | undefined;
  const events: CloudEvent[] = [];
  try {
    for (let reached = false; !reached;) {
      let pulled = 0;
      for await (const msg of await consumer.fetch({ max_messages: BATCH, expires: PULL_EXPIRES_MS })) {
        pulled++;
        if (msg.seq >= last.seq) reached = true;
        if (msg.seq > last.seq) break;
        const event = decodeEvent(msg.data);
        if (!event) continue;
        if (afterSequence !== undefined) {
          if (events.length === options.maxEvents) return { ok: false, reason: 'too-many' };
          events.push(markArrival(event, msg.subject, msg.seq));
        } else if (event.id === afterId) afterSequence = msg.seq;
        if (reached) break;
      }
      if (pulled === 0) break;
    }
  } finally {
    await consumer.delete().catch(() => false);
  }
  return afterSequence === undefined ? { ok: false, reason: 'unknown' } : { ok: true, afterSequence, events };
}

async function lastMessage(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
): Promise<{ seq: number; time: Date } | undefined> {
  try {
    const stored = await jsm.streams.getMessage(stream, { last_by_subj: subject });
    return { seq: stored.seq, time: stored.time };
  } catch (error) {
    // No message on the subject (10037, "no message found").
    if (error instanceof NatsError && error.api_error?.code === 404) return undefined;
    throw error;
  }
}
