/** The subjects the event stream captures: every tenant's restaurant events. */
export const STREAM_SUBJECTS = 'tenant.*.restaurant.>';
/** JetStream drops a second publish with the same Nats-Msg-Id within this window (the NATS default). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** Events are kept for replay and inspection for this long. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
