export * from './types.js';
export { BusUnavailableError } from './errors.js';
export { createMemoryBus } from './memory-bus.js';
export { connectNatsBus } from './connect-nats-bus.js';
export type { NatsBusOptions } from './nats-bus.js';
export { buildEvent, type BuildEventInput, type BuiltEvent } from './events.js';
export {
  createOutboxRelay,
  type OutboxRelay,
  type OutboxRelayOptions,
  type OutboxRelayStats,
} from './outbox-relay.js';
export { isPublishSubject, isSubjectPattern, isSubjectToken, subjectMatches } from './subject-matcher.js';
export { decodeEvent, encodeEvent, isCloudEvent } from './codec.js';
export { DUPLICATE_WINDOW_MS, MAX_AGE_MS, STREAM_SUBJECTS } from './stream-settings.js';
export { DEFAULT_MAX_PENDING } from './subscription-queue.js';
