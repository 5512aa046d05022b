import type { GuestFields } from './ospiti-store.js';

/** What a booking's event tells about its guest (the fields of prenotazione's record that counting reads). */
export interface BookingFacts {
  id: string;
  state: string;
  covers: number;
  /** Restaurant-local wall clock of the start. */
  bookingDate: string;
  /** UTC instants. */
  startsAt: string;
  cancelledAt: string | null;
}

/** A cancellation this close to the start (or later) is a late one. */
export const LATE_CANCELLATION_MS = 24 * 60 * 60 * 1000;

/** The count a booking's final state adds to its guest, keyed so that it is added once. */
export interface Outcome {
  key: string;
  kind: 'visita' | 'noShow' | 'annullamentoTardivo';
}

/** completata: a visit; no_show: a no-show; annullata within 24 h of the start: a late cancellation. */
export function outcomeOf(booking: BookingFacts): Outcome | null {
  const kind = kindOf(booking);
  return kind ? { key: `${booking.id}:${kind}`, kind } : null;
}

function kindOf(booking: BookingFacts): Outcome['kind'] | null {
  if (booking.state === 'completata') return 'visita';
  if (booking.state === 'no_show') return 'noShow';
  if (booking.state === 'annullata' && booking.cancelledAt) {
    const notice = Date.parse(booking.startsAt) - Date.parse(booking.cancelledAt);
    if (Number.isFinite(notice) && notice < LATE_CANCELLATION_MS) return 'annullamentoTardivo';
  }
  return null;
}

/** The guest with the outcome counted, or null when it already was (an event seen twice counts once). */
export function applyOutcome(
  guest: GuestFields,
  booking: BookingFacts,
  outcome: Outcome,
): GuestFields | null {
  if (guest.conteggiati.includes(outcome.key)) return null;
  const counted = { ...guest, conteggiati: [...guest.conteggiati, outcome.key] };
  switch (outcome.kind) {
    case 'visita':
      return {
        ...counted,
        visite: guest.visite + 1,
        coperti: guest.coperti + booking.covers,
        primaVisita: earliest(guest.primaVisita, booking.bookingDate),
        ultimaVisita: latest(guest.ultimaVisita, booking.bookingDate),
      };
    case 'noShow':
      return { ...counted, noShow: guest.noShow + 1 };
    case 'annullamentoTardivo':
      return { ...counted, annullamentiTardivi: guest.annullamentiTardivi + 1 };
  }
}

export function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

export function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}
