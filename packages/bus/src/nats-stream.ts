import { NatsError, StorageType, nanos, type JetStreamManager, type StreamConfig } from 'nats';

import { DUPLICATE_WINDOW_MS, MAX_AGE_MS, STREAM_SUBJECTS } from './stream-settings.js';

/** JetStream API error: a stream with this name exists with another configuration. */
const STREAM_NAME_IN_USE = 10058;

/** The configuration of the event stream (pure). */
function eventStreamConfig(name: string): Partial<StreamConfig> {
  return {
    name,
    subjects: [STREAM_SUBJECTS],
    storage: StorageType.File,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(MAX_AGE_MS),
  };
}

function jsErrorCode(error: unknown): number | undefined {
  return error instanceof NatsError ? error.api_error?.err_code : undefined;
}

/**
 * Makes sure the event stream exists and captures STREAM_SUBJECTS. Idempotent and safe when several
 * processes start at once: creating a stream with an identical configuration succeeds on the server; when
 * the stream exists with another configuration (an operator tuned it), it is kept and only the subject is
 * added if it is missing.
 */
export async function ensureEventStream(jsm: JetStreamManager, name: string): Promise<void> {
  try {
    await jsm.streams.add(eventStreamConfig(name));
  } catch (error) {
    if (jsErrorCode(error) !== STREAM_NAME_IN_USE) throw error;
    const info = await jsm.streams.info(name);
    const subjects = info.config.subjects ?? [];
    if (!subjects.includes(STREAM_SUBJECTS)) {
      await jsm.streams.update(name, { subjects: [...subjects, STREAM_SUBJECTS] });
    }
  }
}
