import { UnavailableError } from '@coperto/errors';

/**
 * The bus could not take an event (not connected, no PubAck within the timeout, no JetStream responder,
 * closed). Nothing can be assumed about whether the event was stored: the caller (the outbox relay) keeps
 * it and publishes it again later with the same id, and JetStream drops the duplicate.
 */
export class BusUnavailableError extends UnavailableError {
  constructor(message = 'Event bus unavailable', options?: ErrorOptions) {
    super(message, options);
  }
}
