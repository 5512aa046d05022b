import type { Penale, TipoGaranzia } from './policy.js';
import type { Modo } from './rules.js';

/**
 * A guarantee's status (schema.graphql's StatoGaranzia): `requested` until the money is in; `authorized` (a card
 * held or saved) or `paid` (a deposit taken); then `released` (hold let go, nothing charged), `refunded`, `charged`
 * (all or part kept), `failed` (a fee Stripe declined); `stuck` (money arrived for a booking already ended: staff
 * refund it).
 */
export type StatoGaranzia =
  'requested' | 'authorized' | 'paid' | 'released' | 'refunded' | 'charged' | 'failed' | 'stuck';

/** The states in which money (or a usable card) is in place: the booking is `caparra_pagata`. */
export const SECURED: readonly StatoGaranzia[] = ['authorized', 'paid'];

/** Settled: nothing more will happen to it by itself (stuck waits for staff). */
export const SETTLED: readonly StatoGaranzia[] = ['released', 'refunded', 'charged', 'failed'];

/** How many Stripe event ids a guarantee remembers (Stripe sends a handful per intent). */
export const EVENTS_KEPT = 50;

/** A booking's guarantee (collection `garanzie`, id = the booking's id). */
export interface GaranziaRecord {
  id: string;
  tipo: TipoGaranzia;
  modo: Modo;
  stato: StatoGaranzia;
  /** Minor units. */
  importo: number;
  /**
   * The rule's amount per cover: while `requested`, the amount follows the party (docs/payments.md). Absent on
   * records stored before it existed (their amount stays as asked).
   */
  importoPerCoperto?: number;
  valuta: string;
  /** Unpaid past this instant, the booking is cancelled (motivo guarantee_not_provided). */
  scadenza: string;
  /** The booking's start (tiers count hours before it). */
  startsAt: string;
  /** The tiers and no-show percent of the policy when the guarantee was asked for (the terms the guest saw). */
  penali: Penale[];
  percentualeNoShow: number;
  /** Part of every Stripe idempotency key: a new attempt (a new intent) has a new number. */
  tentativo: number;
  /** The connected account the intent lives on; null = the platform's account. */
  account: string | null;
  intentId: string | null;
  clientSecret: string | null;
  customerId: string | null;
  paymentMethodId: string | null;
  /** Minor units kept and given back so far. */
  addebitato: number;
  rimborsato: number;
  /** Why it is stuck or failed, or the last failed payment attempt's message. */
  motivo: string | null;
  /** Stripe event ids already applied (newest last, at most EVENTS_KEPT). */
  eventi: string[];
  /** A move of the booking to caparra_pagata this guarantee still owes prenotazione (retried by a repeated event). */
  spostaPrenotazione: boolean;
  /**
   * The Stripe event that put the money (or the card) in place; null while it never was. A guarantee released after
   * it was secured (a hold let go, a saved card left) takes a later notice for the same intent as stale, not as
   * money arriving late. Absent on records stored before it existed.
   */
  securedBy?: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}
