import { ValidationError } from '@coperto/errors';
import type { StripeFacts } from './state-flow.js';

type Data = Record<string, unknown>;
const isRecord = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * What garanzie reads of a Stripe event (its JSON as Stripe sent it): the event id and type, the intent's id, and
 * the tenant and booking the service put in the intent's metadata. 400 for a body that is not an event.
 */
export function stripeFactsOf(json: string): StripeFacts {
  let event: unknown;
  try {
    event = JSON.parse(json);
  } catch {
    throw new ValidationError([{ field: 'evento', message: 'must be a Stripe event (JSON)' }]);
  }
  const object = isRecord(event) && isRecord(event.data) ? event.data.object : null;
  if (!isRecord(event) || !text(event.id) || !text(event.type) || !isRecord(object) || !text(object.id)) {
    throw new ValidationError([{ field: 'evento', message: 'must be a Stripe event with data.object' }]);
  }
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const paymentMethod = object.payment_method;
  return {
    eventId: text(event.id)!,
    type: text(event.type)!,
    intentId: text(object.id)!,
    tenantId: text(metadata.tenantId),
    bookingId: text(metadata.bookingId),
    paymentMethodId: isRecord(paymentMethod) ? text(paymentMethod.id) : text(paymentMethod),
  };
}
