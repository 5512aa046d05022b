import { EVENTS_KEPT, SECURED, type GaranziaRecord, type StatoGaranzia } from './garanzia-record.js';
import { penaltyPercent, percentOf } from './rules.js';

/** What garanzie reads of a Stripe event (the verified event's `data.object`). */
export interface StripeFacts {
  eventId: string;
  type: string;
  /** The PaymentIntent's or SetupIntent's id. */
  intentId: string;
  tenantId: string | null;
  bookingId: string | null;
  paymentMethodId: string | null;
}

/** What an event means for a guarantee. */
export type Segnale = 'held' | 'paid' | 'saved' | 'attempt_failed' | 'other';

export function signalOf(type: string, modo: GaranziaRecord['modo']): Segnale {
  switch (type) {
    case 'payment_intent.amount_capturable_updated':
      return modo === 'hold' ? 'held' : 'other';
    case 'payment_intent.succeeded':
      // A hold's intent succeeds when the service captures a fee: already accounted for by the capture.
      return modo === 'deposit' ? 'paid' : 'other';
    case 'setup_intent.succeeded':
      return modo === 'saved_card' ? 'saved' : 'other';
    case 'payment_intent.payment_failed':
    case 'setup_intent.setup_failed':
      return 'attempt_failed';
    default:
      return 'other';
  }
}

export type EventOutcome = 'applied' | 'duplicate' | 'recorded' | 'stuck';

export interface EventVerdict {
  outcome: EventOutcome;
  /** The fields to set (with the event id recorded); null for a duplicate. */
  changes: Partial<GaranziaRecord> | null;
}

/**
 * A verified Stripe event applied to a guarantee: a repeated event changes nothing; money arriving for a requested
 * guarantee secures it (and owes the booking a move to caparra_pagata); money arriving after the guarantee was
 * released (the booking ended first) makes it `stuck`; anything else late or out of order is only recorded.
 */
export function applyEvent(g: GaranziaRecord, facts: StripeFacts): EventVerdict {
  if (g.eventi.includes(facts.eventId)) return { outcome: 'duplicate', changes: null };
  const eventi = [...g.eventi, facts.eventId].slice(-EVENTS_KEPT);
  const recorded: EventVerdict = { outcome: 'recorded', changes: { eventi } };
  if (facts.intentId !== g.intentId) return recorded;
  const signal = signalOf(facts.type, g.modo);
  if (signal === 'other') return recorded;
  if (signal === 'attempt_failed') {
    return g.stato === 'requested'
      ? { outcome: 'applied', changes: { eventi, motivo: 'payment_attempt_failed' } }
      : recorded;
  }
  const money = signal !== 'saved';
  if (g.stato === 'requested') {
    const stato: StatoGaranzia = signal === 'paid' ? 'paid' : 'authorized';
    return {
      outcome: 'applied',
      changes: {
        eventi,
        stato,
        motivo: null,
        spostaPrenotazione: true,
        securedBy: facts.eventId,
        ...(signal === 'saved' ? { paymentMethodId: facts.paymentMethodId } : {}),
      },
    };
  }
  // Released before any money came (its intent cancelled): money now is stuck. Released after it was secured (the
  // hold let go at the booking's end): a later notice for the same intent is stale, only recorded.
  if (g.stato === 'released' && money && !g.securedBy) {
    return {
      outcome: 'stuck',
      changes: { eventi, stato: 'stuck', motivo: 'money_after_booking_ended' },
    };
  }
  return recorded;
}

/** Why a guarantee is being settled: the booking's final state (and the tier's percent of a cancellation). */
export type Chiusura =
  { kind: 'cancelled'; percent: number } | { kind: 'no_show'; percent: number } | { kind: 'completed' };

/** The one Stripe call a settlement makes (or none). */
export type Operazione =
  | { op: 'none' }
  | { op: 'cancel_intent' }
  | { op: 'capture'; amount: number }
  | { op: 'charge_saved_card'; amount: number }
  | { op: 'refund'; amount: number };

export interface Settlement {
  operation: Operazione;
  /** The state it ends in when the operation succeeds. */
  stato: StatoGaranzia;
  addebitato: number;
  rimborsato: number;
  /** Why (a stuck guarantee). */
  motivo?: string;
}

/** The motivo of money in place for a booking that ended before it took the money (caparra_pagata). */
export const BOOKING_ENDED_BEFORE_PAYMENT = 'booking_ended_before_payment';

/**
 * How a guarantee ends when its booking does: a requested one is released (its intent cancelled, so no money can
 * arrive); a held card is captured for the fee or let go; a saved card is charged the fee off-session or left; a
 * deposit keeps the fee and refunds the rest (a completed booking keeps it all: it goes towards the bill).
 * Money in place that the booking never took (its move to caparra_pagata still owed: the money arrived as the
 * booking ended) is `stuck` for staff, as money arriving after the end is, never kept as a fee: the guest paid for
 * a booking that was no longer there. Null when the guarantee is already settled or stuck: it is never charged
 * twice.
 */
export function settlement(g: GaranziaRecord, chiusura: Chiusura): Settlement | null {
  if (SECURED.includes(g.stato) && g.spostaPrenotazione) {
    return {
      operation: { op: 'none' },
      stato: 'stuck',
      addebitato: 0,
      rimborsato: 0,
      motivo: BOOKING_ENDED_BEFORE_PAYMENT,
    };
  }
  const percent = chiusura.kind === 'completed' ? null : chiusura.percent;
  const done = (operation: Operazione, stato: StatoGaranzia, addebitato = 0, rimborsato = 0): Settlement => ({
    operation,
    stato,
    addebitato,
    rimborsato,
  });
  switch (g.stato) {
    case 'requested':
      return done({ op: g.intentId ? 'cancel_intent' : 'none' }, 'released');
    case 'authorized': {
      const fee = percent === null ? 0 : percentOf(g.importo, percent);
      if (fee === 0) return done({ op: g.modo === 'hold' ? 'cancel_intent' : 'none' }, 'released');
      return g.modo === 'hold'
        ? done({ op: 'capture', amount: fee }, 'charged', fee)
        : done({ op: 'charge_saved_card', amount: fee }, 'charged', fee);
    }
    case 'paid': {
      const kept = percent === null ? g.importo : percentOf(g.importo, percent);
      const back = g.importo - kept;
      if (back === 0) return done({ op: 'none' }, 'charged', kept);
      return done({ op: 'refund', amount: back }, kept === 0 ? 'refunded' : 'charged', kept, back);
    }
    default:
      return null;
  }
}

/** Staff give stuck money back: a hold let go, a deposit refunded in full. Null unless the guarantee is stuck. */
export function stuckRefund(g: GaranziaRecord): Settlement | null {
  if (g.stato !== 'stuck') return null;
  return g.modo === 'deposit'
    ? {
        operation: { op: 'refund', amount: g.importo },
        stato: 'refunded',
        addebitato: 0,
        rimborsato: g.importo,
      }
    : { operation: { op: 'cancel_intent' }, stato: 'released', addebitato: 0, rimborsato: 0 };
}

/** How a booking ended, as its event tells. */
export type BookingEnd =
  | { kind: 'cancelled'; cancelledAt: string; motivo: string | null }
  | { kind: 'no_show' }
  | { kind: 'completed' };

/** The motivo of a booking cancelled because its guarantee did not arrive in time (nothing is charged). */
export const GUARANTEE_NOT_PROVIDED = 'guarantee_not_provided';

/** The close of a guarantee for how its booking ended, by the terms stored with it (tiers, no-show percent). */
export function chiusuraOf(g: GaranziaRecord, end: BookingEnd): Chiusura {
  switch (end.kind) {
    case 'cancelled':
      return {
        kind: 'cancelled',
        percent:
          end.motivo === GUARANTEE_NOT_PROVIDED ? 0 : penaltyPercent(g.penali, g.startsAt, end.cancelledAt),
      };
    case 'no_show':
      return { kind: 'no_show', percent: g.percentualeNoShow };
    case 'completed':
      return { kind: 'completed' };
  }
}

/**
 * After the owed booking move: done, or refused because the booking has ended (or is gone). Money still in place for
 * an ended booking is `stuck` for staff; a guarantee settled meanwhile (the booking's close) keeps its state.
 */
export function afterBookingMove(g: GaranziaRecord, bookingEnded: boolean): Partial<GaranziaRecord> {
  return bookingEnded && SECURED.includes(g.stato)
    ? { spostaPrenotazione: false, stato: 'stuck', motivo: BOOKING_ENDED_BEFORE_PAYMENT }
    : { spostaPrenotazione: false };
}
