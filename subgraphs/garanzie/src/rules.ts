import type { Penale, PoliticaRecord, Regola, TipoGaranzia } from './policy.js';

/** What the rules read of a booking (prenotazione's event data). */
export interface BookingFacts {
  id: string;
  covers: number;
  /** Restaurant-local wall clock `YYYY-MM-DDTHH:mm:ss`. */
  bookingDate: string;
  /** UTC instant of the start. */
  startsAt: string;
}

/** A manual-capture hold lasts 7 days at Stripe (5 for some cards off-session): beyond 5 days a card is saved. */
export const HOLD_MAX_DAYS = 5;
const DAY_MS = 24 * 3600_000;

/** ISO weekday (1 Monday .. 7 Sunday) of a local `YYYY-MM-DD…` date. */
export function isoWeekday(localDateTime: string): number {
  const [y, m, d] = localDateTime.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The first rule matching the booking's party, weekday and local time; null = no guarantee. */
export function matchingRule(policy: Pick<PoliticaRecord, 'regole'>, booking: BookingFacts): Regola | null {
  const weekday = isoWeekday(booking.bookingDate);
  const time = booking.bookingDate.slice(11, 16);
  return (
    policy.regole.find(
      (rule) =>
        booking.covers >= rule.minCoperti &&
        (rule.giorni.length === 0 || rule.giorni.includes(weekday)) &&
        time >= rule.dalle &&
        time < rule.alle,
    ) ?? null
  );
}

/** How the guarantee is taken at Stripe. */
export type Modo = 'deposit' | 'hold' | 'saved_card';

/** A deposit is a payment; a card is held (manual capture) when the start is at most 5 days away, else saved. */
export function modeFor(tipo: TipoGaranzia, startsAt: string, now: Date): Modo {
  if (tipo === 'deposit') return 'deposit';
  return new Date(startsAt).getTime() - now.getTime() <= HOLD_MAX_DAYS * DAY_MS ? 'hold' : 'saved_card';
}

/** The guarantee's amount in minor units: per cover times the party. */
export function guaranteeAmount(rule: Regola, covers: number): number {
  return rule.importoPerCoperto * covers;
}

/**
 * The amount a guarantee takes when its booking's party becomes `covers`: per cover times the new party while it is
 * still `requested` (nothing paid or held yet: the guest pays for the party they bring); null when nothing changes
 * (money or a card already in place keeps the amount the guest agreed to; a record without its per-cover amount).
 */
export function repricedAmount(
  g: { stato: string; importo: number; importoPerCoperto?: number },
  covers: number,
): number | null {
  if (g.stato !== 'requested' || g.importoPerCoperto === undefined) return null;
  const amount = g.importoPerCoperto * covers;
  return amount === g.importo ? null : amount;
}

/**
 * A booking starting within this many minutes (a walk-in seated from the waitlist, a party booked at the door) is
 * asked for no guarantee: there is no time to pay, and its due time would cancel it at once. The policy's shortest
 * due time.
 */
export const MIN_NOTICE_MINUTES = 10;

export function leavesTimeToPay(startsAt: string, now: Date): boolean {
  return new Date(startsAt).getTime() - now.getTime() >= MIN_NOTICE_MINUTES * 60_000;
}

/** Due `scadenzaMinuti` after it was asked for, never after the booking starts. */
export function dueAt(now: Date, scadenzaMinuti: number, startsAt: string): string {
  const due = Math.min(now.getTime() + scadenzaMinuti * 60_000, new Date(startsAt).getTime());
  return new Date(due).toISOString();
}

/** The percent a cancellation `cancelledAt` charges: the tier with the largest oreAlmeno the notice reaches; 0 if none. */
export function penaltyPercent(penali: readonly Penale[], startsAt: string, cancelledAt: string): number {
  const noticeHours = (new Date(startsAt).getTime() - new Date(cancelledAt).getTime()) / 3600_000;
  let best: Penale | null = null;
  for (const tier of penali) {
    if (noticeHours >= tier.oreAlmeno && (best === null || tier.oreAlmeno > best.oreAlmeno)) best = tier;
  }
  return best?.percentuale ?? 0;
}

/** `percent` of `amount`, in whole minor units (rounded half up). */
export function percentOf(amount: number, percent: number): number {
  return Math.round((amount * percent) / 100);
}
