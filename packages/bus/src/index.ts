export * from './types.js';
export { cloudEventEnvelope, cloudEventEnvelopeJsonSchema } from './envelope.js';
export { BusUnavailableError } from './errors.js';
export { createMemoryBus } from './memory-bus.js';
export { arrivalSubject, markArrival } from './arrival-subject.js';
export { connectNatsBus } from './connect-nats-bus.js';
export type { NatsBusOptions } from './nats-bus.js';
export type { NatsConnectTarget, NatsCredentials } from './nats-auth.js';
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
