import { trustedTenantId } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { GaranzieStore } from './garanzie-store.js';
import { GuaranteeService, type DueTimes } from './guarantee-service.js';
import type { BookingFacts } from './rules.js';
import type { BookingEnd } from './state-flow.js';
import type { StripePayments } from './stripe-payments.js';

/** The durable consumer's name: every garanzie instance shares it (each event is handled by one of them). */
export const GUARANTEE_CONSUMER = 'garanzie';
export const BOOKING_EVENTS_SUBJECT = 'tenant.*.restaurant.bookings.>';

/** States a new booking may take a guarantee in (a booking made completed or cancelled needs none). */
const GUARANTEED_ON_CREATE = new Set(['pending', 'confermata']);

type Data = Record<string, unknown>;
const text = (data: Data, key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null);

/**
 * What a booking event asks of garanzie: a guarantee for a new booking, its amount following a changed party, the
 * close of one for a booking that ended.
 */
export type BookingStep =
  | { kind: 'ensure'; booking: BookingFacts }
  | { kind: 'reprice'; bookingId: string; covers: number }
  | { kind: 'close'; bookingId: string; end: BookingEnd };

/** The step of one booking event (prenotazione's event data is the whole record), or null for none. */
export function stepOf(event: CloudEvent): BookingStep | null {
  if (typeof event.data !== 'object' || event.data === null) return null;
  const data = event.data as Data;
  const id = text(data, 'id');
  const state = text(data, 'state');
  if (!id || !state) return null;
  if (event.type === 'bookings.created') {
    const bookingDate = text(data, 'bookingDate');
    const startsAt = text(data, 'startsAt');
    const covers = data.covers;
    if (!GUARANTEED_ON_CREATE.has(state) || !bookingDate || !startsAt || typeof covers !== 'number')
      return null;
    return { kind: 'ensure', booking: { id, covers, bookingDate, startsAt } };
  }
  if (state === 'annullata') {
    const cancelledAt = text(data, 'cancelledAt') ?? event.time;
    return {
      kind: 'close',
      bookingId: id,
      end: { kind: 'cancelled', cancelledAt, motivo: text(data, 'motivo') },
    };
  }
  if (event.type === 'bookings.updated' && GUARANTEED_ON_CREATE.has(state) && typeof data.covers === 'number')
    return { kind: 'reprice', bookingId: id, covers: data.covers };
  if (state === 'no_show') return { kind: 'close', bookingId: id, end: { kind: 'no_show' } };
  if (state === 'completata') return { kind: 'close', bookingId: id, end: { kind: 'completed' } };
  return null;
}

/**
 * The consumer that asks for each new booking's guarantee, re-prices a requested one when the party changes, and
 * closes it when the booking ends.
 */
export function bookingEventConsumer(
  store: DocumentStore,
  stripe: StripePayments | null,
  dueTimes: DueTimes,
  now: () => Date,
): EventConsumer {
  return {
    durable: GUARANTEE_CONSUMER,
    subject: BOOKING_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const step = stepOf(event);
      if (!tenant || !step) return;
      const tenantId = trustedTenantId(tenant);
      const tenantStore = new GaranzieStore(store.forTenant(tenantId));
      const service = new GuaranteeService({ tenantId, store: tenantStore, stripe, dueTimes, now });
      if (step.kind === 'ensure') await service.ensure(step.booking);
      else if (step.kind === 'reprice') await service.reprice(step.bookingId, step.covers);
      else await service.settle(step.bookingId, step.end);
    },
  };
}
