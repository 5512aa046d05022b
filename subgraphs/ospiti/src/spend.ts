import type { TablePayment } from './event-facts.js';
import { changeGuest } from './guest-writes.js';
import type { CollegamentoRecord } from './ospite-record.js';
import type { GuestFields, OspitiStore } from './ospiti-store.js';

/** A party seated this long before its booking's start still owns the table's payment. */
export const EARLY_SEATING_MS = 60 * 60 * 1000;

/** A table's payment belongs to a booking that started at most this long before (a long dinner). */
export const LONGEST_STAY_MS = 12 * 60 * 60 * 1000;

const SEATED_STATES = new Set(['pending', 'confermata', 'caparra_pagata', 'completata']);

/**
 * The booking a table was seating when it went to payment, among the linked bookings on that table that were not
 * cancelled or no-shows: the one that started last at or before the payment (within LONGEST_STAY_MS), else the
 * first one starting within EARLY_SEATING_MS after it (a party seated early). Null when none fits.
 */
export function bookingPaid(
  links: readonly CollegamentoRecord[],
  payment: TablePayment,
): CollegamentoRecord | null {
  const at = Date.parse(payment.at);
  let started: { link: CollegamentoRecord; start: number } | null = null;
  let early: { link: CollegamentoRecord; start: number } | null = null;
  for (const link of links) {
    if (link.tipo !== 'prenotazione' || !SEATED_STATES.has(link.stato) || !link.startsAt) continue;
    if (!(link.tableIds ?? []).includes(payment.tableId)) continue;
    const start = Date.parse(link.startsAt);
    if (start <= at && at - start <= LONGEST_STAY_MS) {
      if (!started || start > started.start) started = { link, start };
    } else if (start > at && start - at <= EARLY_SEATING_MS) {
      if (!early || start < early.start) early = { link, start };
    }
  }
  return (started ?? early)?.link ?? null;
}

/** The key a table's payment for a booking is counted under: once per booking and table. */
export const spendKey = (bookingId: string, tableId: string) => `${bookingId}:spesa:${tableId}`;

/** The guest with the payment added, or null when it already was (a replayed event). Cents kept exact. */
export function applySpend(guest: GuestFields, key: string, amount: number): GuestFields | null {
  if (guest.conteggiati.includes(key)) return null;
  return {
    ...guest,
    conteggiati: [...guest.conteggiati, key],
    spesaTotale: Math.round((guest.spesaTotale + amount) * 100) / 100,
  };
}

/**
 * Adds a table's bill to the guest of the booking it was seating (`spesaTotale`), once per booking and table:
 * the first payment of a table for a booking counts, a replay or a later one for the same booking adds nothing.
 */
export async function recordSpend(store: OspitiStore, now: () => Date, payment: TablePayment): Promise<void> {
  const booking = bookingPaid(await store.bookingLinksOnTable(payment.tableId), payment);
  if (!booking) return;
  const key = spendKey(booking.riferimento, payment.tableId);
  await changeGuest(store, booking.ospiteId, now, (guest) => applySpend(guest, key, payment.amount));
}
