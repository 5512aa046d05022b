/**
 * The recorded history of a generated payments program (payments.e2e.test.ts): every request with its send and
 * answer times (wall clock, ms since the epoch, so that they compare with the service's own timestamps on the same
 * machine), the policies sent, the reminders.due events and emails that came out, the reads of each booking (state,
 * guarantee, reminders) during the run and at its end, and the stuck list. The invariants (payments-invariants.ts)
 * read only this.
 */

/** The guarantee policy as the checkers reason on it (the suite's policies use no weekday or time window). */
export interface PolicyTerms {
  rules: Array<{ type: 'deposit' | 'card'; minCovers: number; amountPerCover: number; currency: string }>;
  penalties: Array<{ minHours: number; percent: number }>;
  noShowPercent: number;
}

export type Signature = 'good' | 'wrong' | 'old' | 'none';

/** What a request meant. `ref`: the booking's index in the program. */
export type PayIntent =
  | { kind: 'policy'; version: number }
  | { kind: 'book'; ref: number; covers: number }
  | { kind: 'move'; ref: number }
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
  reminders: ReminderEvent[];
  /** The Message-IDs of the emails to the program's guests (each guest's address is the booking's own). */
  mails: Array<{ to: string; messageId: string }>;
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
    '--- final reads ---',
    ...h.finals.map((r) => JSON.stringify(r)),
    `--- stuck listed --- ${JSON.stringify(h.stuckListed)}`,
    '--- reminders.due ---',
    ...h.reminders.map((r) => JSON.stringify(r)),
    `--- mails --- ${JSON.stringify(h.mails)}`,
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
}

export const describeTally = (tally: PayTally) =>
  [...tally.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
