/**
 * The recorded history of a generated payments program (payments.e2e.test.ts): every request with its send and
 * answer times (the stack's virtual clock, ms since the epoch, so that they compare with the service's own
 * timestamps), the policies sent, the clock's advances, the reminders.due events (distributed mode) and emails that
 * came out, the requests the service made to Stripe, the reads of each booking (state, guarantee, reminders) during
 * the run and at its end, and the stuck list. The invariants (payments-invariants.ts) read only this.
 */

/** The guarantee policy as the checkers reason on it (the suite's policies use no weekday or time window). */
export interface PolicyTerms {
  rules: Array<{ type: 'deposit' | 'card'; minCovers: number; amountPerCover: number; currency: string }>;
  penalties: Array<{ minHours: number; percent: number }>;
  noShowPercent: number;
  /** scadenzaMinuti: a guarantee is due this long after it is asked for (never after the start). */
  dueMinutes: number;
}

export type Signature = 'good' | 'wrong' | 'old' | 'none';

/** What a request meant. `ref`: the booking's index in the program. */
export type PayIntent =
  | { kind: 'policy'; version: number }
  | { kind: 'book'; ref: number; covers: number }
  | { kind: 'move'; ref: number }
  | { kind: 'party'; ref: number; covers: number }
  | { kind: 'confirm' | 'cancel' | 'noShow' | 'complete'; ref: number }
  | {
      kind: 'webhook';
      ref: number;
      eventId: string;
      type: string;
      intentId: string;
      signature: Signature;
    };

export interface PayEntry {
  id: number;
  intent: PayIntent;
  method: string;
  path: string;
  body?: unknown;
  sentAt: number;
  answeredAt: number;
  /** 0 when no answer came. */
  status: number;
  response: any;
}

export interface GuaranteeView {
  status: string;
  mode: 'deposit' | 'hold' | 'saved_card';
  amount: number;
  charged: number;
  refunded: number;
  stripeIntentId: string | null;
  createdAt: string;
  /** Unpaid after it, the booking is cancelled (motivo guarantee_not_provided). */
  dueAt: string;
}

export interface ReminderView {
  hoursBefore: number;
  dueAt: string;
  status: string;
}

/** One read of a booking (state, guarantee and reminders in one GraphQL query), answered at `at`. */
export interface BookingRead {
  ref: number;
  at: number;
  state: string;
  startsAt: string;
  cancelledAt: string | null;
  /** Why it was cancelled (`guarantee_not_provided`: its guarantee's due time passed unpaid). */
  motivo: string | null;
  guarantee: GuaranteeView | null;
  reminders: ReminderView[];
}

export interface ReminderEvent {
  id: string;
  bookingId: string;
  hoursBefore: number;
  dueAt: string;
  /** When promemoria sent it (the event's time). */
  time: string;
  email: boolean;
}

/** A reminder email to one of the program's guests. */
export interface ReminderMail {
  to: string;
  messageId: string;
  subject: string;
  /** Its Date header (the service's clock when it sent it, whole seconds). */
  sentAt: number;
}

/** A request the service made to Stripe (the suite's watch in front of stripe-mock), for the program's tenant. */
export interface StripeCall {
  method: string;
  path: string;
  /** `coperto:<tenant>:<booking>:<attempt>:<step>` (subgraphs/garanzie stripe-payments.ts). */
  idempotencyKey: string;
  body: string;
  status: number;
}

export interface PaymentHistory {
  /** Every policy the program sent (version 0: the one of the setup), as the checkers read them. */
  policies: Array<{ version: number; terms: PolicyTerms; entry: number }>;
  entries: PayEntry[];
  /** The program's bookings, by ref (id null: refused). */
  bookings: Array<{ ref: number; id: string | null; email: string; covers: number }>;
  reminderHours: number[];
  /** Reads during the run (after steps) and the last one of each booking (`finals`). */
  reads: BookingRead[];
  finals: BookingRead[];
  /** Booking ids in GET /api/garanzie/bloccate at the end. */
  stuckListed: string[];
  /** The reminders.due events, when they could be watched (`eventsObserved`: distributed mode). */
  reminders: ReminderEvent[];
  eventsObserved: boolean;
  /** The emails to the program's guests (each guest's address is the booking's own). */
  mails: ReminderMail[];
  /** Each move of the clock: when (virtual, before it) and by how much. */
  advances: Array<{ at: number; ms: number }>;
  stripeCalls: StripeCall[];
  /** When the final reads were made. */
  judgedAt: number;
}

const ANSWER_CHARS = 400;

/** A short line per request (printed with a failing program). */
export function describePayEntry(e: PayEntry): string {
  const body = e.body === undefined ? '' : ` ${JSON.stringify(e.body).slice(0, 300)}`;
  const answer = typeof e.response === 'object' ? JSON.stringify(e.response) : String(e.response);
  return `#${e.id} [${new Date(e.sentAt).toISOString().slice(11, 23)}+${e.answeredAt - e.sentAt}ms] ${JSON.stringify(e.intent)} ${e.method} ${e.path}${body} → ${e.status} ${answer?.slice(0, ANSWER_CHARS)}`;
}

export function describeHistory(h: PaymentHistory): string {
  return [
    '--- requests ---',
    ...h.entries.map(describePayEntry),
    `--- clock advances --- ${h.advances.map((a) => `${new Date(a.at).toISOString()} +${a.ms / 60_000} min`).join(', ')}`,
    '--- Stripe calls ---',
    ...h.stripeCalls.map(
      (c) => `${c.method} ${c.path} [${c.idempotencyKey}] ${c.body.slice(0, 200)} → ${c.status}`,
    ),
    '--- final reads ---',
    ...h.finals.map((r) => JSON.stringify(r)),
    `--- stuck listed --- ${JSON.stringify(h.stuckListed)}`,
    '--- reminders.due ---',
    ...h.reminders.map((r) => JSON.stringify(r)),
    '--- mails ---',
    ...h.mails.map((m) => `${new Date(m.sentAt).toISOString()} ${m.to}: ${m.subject}`),
  ].join('\n');
}

/** What programs did, summed (printed after the run, to show the checks had something to check). */
export type PayTally = Map<string, number>;

export function tallyInto(tally: PayTally, h: PaymentHistory): void {
  const add = (key: string, n = 1) => tally.set(key, (tally.get(key) ?? 0) + n);
  add('programs');
  add('requests', h.entries.length);
  for (const e of h.entries) {
    if (e.intent.kind !== 'webhook') continue;
    add(`webhook ${e.intent.signature} ${e.status}${e.response?.esito ? ` ${e.response.esito}` : ''}`);
  }
  for (const f of h.finals)
    add(`ended ${f.state}, guarantee ${f.guarantee ? `${f.guarantee.mode} ${f.guarantee.status}` : 'none'}`);
  add('caparra_pagata reads', h.reads.filter((r) => r.state === 'caparra_pagata').length);
  add('reminders sent', h.reminders.length);
  add('emails', h.mails.length);
  add('clock advances', h.advances.length);
  add('cancelled for no guarantee', h.finals.filter((f) => f.motivo === 'guarantee_not_provided').length);
  for (const c of h.stripeCalls) add(`stripe ${stripeStep(c)}`);
}

export const describeTally = (tally: PayTally) =>
  [...tally.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');

/** The step of a Stripe call, from its idempotency key (`intent`, `setup`, `settle-capture`, …). */
export function stripeStep(c: Pick<StripeCall, 'idempotencyKey'>): string {
  return c.idempotencyKey.split(':').slice(4).join(':');
}

/** The booking a Stripe call is for, from its idempotency key. */
export function stripeBooking(c: Pick<StripeCall, 'idempotencyKey'>): string {
  return c.idempotencyKey.split(':')[2] ?? '';
}
