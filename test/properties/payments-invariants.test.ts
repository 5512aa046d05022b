// The payments invariants on crafted histories: a right one passes every check, and each invariant fails on a
// history that breaks it (a check that cannot fail would prove nothing in the generated suite).
import { describe, expect, it } from 'vitest';
import type { PayEntry, PaymentHistory } from './payments-history.js';
import {
  PAYMENT_INVARIANTS,
  paymentViolations,
  STACK_TIME_ZONE,
  startAsWritten,
  tierPercent,
} from './payments-invariants.js';
import { POLICIES } from './payments-program.js';

const B = Date.parse('2026-11-28T16:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(B + ms).toISOString();
const START = HOUR + 5_000;

function entry(
  id: number,
  intent: PayEntry['intent'],
  sent: number,
  status: number,
  response: unknown,
): PayEntry {
  return {
    id,
    intent,
    method: 'POST',
    path: '/',
    sentAt: B + sent,
    answeredAt: B + sent + 100,
    status,
    response,
  };
}

const webhook = (id: number, sent: number, status = 200, esito = 'applied', signature = 'good' as const) =>
  entry(
    id,
    {
      kind: 'webhook',
      ref: 0,
      eventId: 'evt_1',
      type: 'payment_intent.succeeded',
      intentId: 'pi_1',
      signature,
    },
    sent,
    status,
    { received: true, esito },
  );

const paid = { status: 'paid', mode: 'deposit' as const, amount: 6000, charged: 0, refunded: 0 };
const guarantee = { ...paid, stripeIntentId: 'pi_1', createdAt: iso(400), dueAt: iso(400 + 10 * 60_000) };
const subjectFor = (startsAt: number) =>
  `Promemoria: il tuo tavolo ${startAsWritten(startsAt, STACK_TIME_ZONE)[0]}`;

/**
 * A deposit of 6 covers booked an hour and 5 s ahead, paid by a well-signed event, its reminder sent (and
 * emailed) at its due time, cancelled an hour before its start: the 100 % tier keeps the whole deposit.
 */
function rightHistory(): PaymentHistory {
  return {
    policies: [{ version: 0, terms: POLICIES[0]!, entry: 0 }],
    entries: [
      entry(0, { kind: 'policy', version: 0 }, 0, 200, {}),
      entry(1, { kind: 'book', ref: 0, covers: 6 }, 200, 201, { id: 'b0', startsAt: iso(START), covers: 6 }),
      webhook(2, 1_000),
      entry(3, { kind: 'cancel', ref: 0 }, 10_000, 200, { state: 'annullata' }),
    ],
    bookings: [{ ref: 0, id: 'b0', email: 'g0@example.com', covers: 6 }],
    reminderHours: [1],
    reads: [
      {
        ref: 0,
        at: B + 1_200,
        state: 'caparra_pagata',
        startsAt: iso(START),
        cancelledAt: null,
        motivo: null,
        guarantee,
        reminders: [],
      },
    ],
    finals: [
      {
        ref: 0,
        at: B + 20_000,
        state: 'annullata',
        startsAt: iso(START),
        cancelledAt: iso(10_050),
        motivo: null,
        guarantee: { ...guarantee, status: 'charged', charged: 6000 },
        reminders: [{ hoursBefore: 1, dueAt: iso(5_000), status: 'sent' }],
      },
    ],
    stuckListed: [],
    reminders: [
      { id: 'r1', bookingId: 'b0', hoursBefore: 1, dueAt: iso(5_000), time: iso(5_050), email: true },
    ],
    eventsObserved: true,
    mails: [
      {
        to: 'g0@example.com',
        messageId: 'r1@promemoria.coperto',
        subject: subjectFor(B + START),
        sentAt: B + 5_000,
      },
    ],
    advances: [],
    stripeCalls: [],
    judgedAt: B + 20_000,
  };
}

type Name = keyof typeof PAYMENT_INVARIANTS;
const only = (name: Name, h: PaymentHistory) => {
  const violations = paymentViolations(h);
  expect(violations.length, violations.join('\n')).toBeGreaterThan(0);
  expect(
    violations.every((v) => v.startsWith(`[${name}]`)),
    violations.join('\n'),
  ).toBe(true);
};

describe('payments invariants', () => {
  it('hold on a right history', () => {
    expect(paymentViolations(rightHistory())).toEqual([]);
  });

  it('depositStateOnlyWithMoney: caparra_pagata with a guarantee still requested, or before any money event', () => {
    const requested = rightHistory();
    requested.reads[0]!.guarantee = { ...guarantee, status: 'requested' };
    only('depositStateOnlyWithMoney', requested);
    const early = rightHistory();
    early.reads[0]!.at = B + 900;
    only('depositStateOnlyWithMoney', early);
  });

  it('webhookAnswers: a badly signed event taken, a well-signed one answered 5xx, late money answered applied', () => {
    const taken = rightHistory();
    taken.entries.push(webhook(4, 11_000, 200, 'duplicate', 'wrong' as 'good'));
    only('webhookAnswers', taken);
    const failed = rightHistory();
    failed.entries.push(webhook(4, 11_000, 500, 'x'));
    only('webhookAnswers', failed);
    const lateApplied = rightHistory();
    lateApplied.entries[2] = webhook(2, 10_500);
    lateApplied.reads = [];
    lateApplied.finals[0]!.guarantee = { ...guarantee, status: 'stuck' };
    lateApplied.stuckListed = ['b0'];
    only('webhookAnswers', lateApplied);
  });

  it('chargedOnlyForAReason: charged twice, charged with no money in place, an amount no policy gives', () => {
    const twice = rightHistory();
    twice.finals[0]!.guarantee = { ...twice.finals[0]!.guarantee!, charged: 12_000 };
    only('chargedOnlyForAReason', twice);
    const unpaid = rightHistory();
    unpaid.entries[2] = webhook(2, 1_000, 200, 'recorded');
    unpaid.reads = [];
    only('chargedOnlyForAReason', unpaid);
    const wrongTier = rightHistory();
    wrongTier.finals[0]!.guarantee = { ...wrongTier.finals[0]!.guarantee!, charged: 3000, refunded: 3000 };
    only('chargedOnlyForAReason', wrongTier);
    // The deposit arrived after the cancellation was answered: stuck for staff, never kept as a fee.
    const lateKept = rightHistory();
    lateKept.entries[2] = webhook(2, 10_500, 200, 'stuck');
    lateKept.reads = [];
    only('chargedOnlyForAReason', lateKept);
  });

  it('chargedOnlyForAReason: a party changed before any money, the amount not following it', () => {
    const party = (covers: number, sent = 500) =>
      entry(9, { kind: 'party', ref: 0, covers }, sent, 200, { covers });
    const unpaid = rightHistory();
    unpaid.entries = [unpaid.entries[0]!, unpaid.entries[1]!, party(8), unpaid.entries[3]!];
    unpaid.reads = [];
    unpaid.reminders = [];
    unpaid.mails = [];
    unpaid.entries[1]!.response.startsAt = iso(2 * HOUR);
    unpaid.finals[0]!.startsAt = iso(2 * HOUR);
    unpaid.finals[0]!.guarantee = { ...guarantee, status: 'released', charged: 0 };
    only('chargedOnlyForAReason', unpaid);
    unpaid.finals[0]!.guarantee = { ...guarantee, amount: 8000, status: 'released', charged: 0 };
    expect(paymentViolations(unpaid)).toEqual([]);
    // Paid before the change: the amount paid stays.
    const paidFirst = rightHistory();
    paidFirst.entries.splice(3, 0, party(8, 2_000));
    expect(paymentViolations(paidFirst)).toEqual([]);
  });

  it('everyGuaranteeEnds: a cancelled booking’s deposit still paid, a stuck one not listed', () => {
    const open = rightHistory();
    open.finals[0]!.guarantee = { ...guarantee };
    const violations = PAYMENT_INVARIANTS.everyGuaranteeEnds(open);
    expect(violations).toHaveLength(1);
    const stuck = rightHistory();
    stuck.entries[2] = webhook(2, 10_500, 200, 'stuck');
    stuck.reads = [];
    stuck.finals[0]!.guarantee = { ...guarantee, status: 'stuck' };
    only('everyGuaranteeEnds', stuck);
    stuck.stuckListed = ['b0'];
    expect(paymentViolations(stuck)).toEqual([]);
  });

  it('remindersOnce: the same reminder twice, an email twice, an event that says email and none came', () => {
    const twice = rightHistory();
    twice.reminders.push({ ...twice.reminders[0]!, id: 'r2' });
    expect(PAYMENT_INVARIANTS.remindersOnce(twice).length).toBeGreaterThan(0);
    const mailedTwice = rightHistory();
    mailedTwice.mails.push(mailedTwice.mails[0]!);
    only('remindersOnce', mailedTwice);
    // (With no email at all, the due reminder also never came by the emails: everyDueReminderSent.)
    const unmailed = rightHistory();
    unmailed.mails = [];
    expect(PAYMENT_INVARIANTS.remindersOnce(unmailed)).toEqual(['reminder r1 says email, none came']);
  });

  it('noReminderAfterEnd: a reminder sent after the cancellation was acknowledged', () => {
    const late = rightHistory();
    late.reminders[0]!.time = iso(10_200);
    only('noReminderAfterEnd', late);
  });

  it('everyDueReminderSent: a due reminder of an active booking that never came', () => {
    const missing = rightHistory();
    missing.reminders = [];
    missing.mails = [];
    only('everyDueReminderSent', missing);
    // Moved after its cancellation (prenotazione takes a new time on an ended booking): none owed.
    const movedAfterEnd = rightHistory();
    movedAfterEnd.entries[3] = entry(3, { kind: 'cancel', ref: 0 }, 300, 200, {});
    movedAfterEnd.entries.push(
      entry(4, { kind: 'move', ref: 0 }, 500, 200, { startsAt: iso(START + 1_000) }),
    );
    movedAfterEnd.reminders = [];
    movedAfterEnd.mails = [];
    expect(PAYMENT_INVARIANTS.everyDueReminderSent(movedAfterEnd)).toEqual([]);
    // Cancelled before its reminder was due: none owed.
    missing.entries[3] = entry(3, { kind: 'cancel', ref: 0 }, 4_000, 200, {});
    missing.finals[0]!.cancelledAt = iso(4_050);
    expect(PAYMENT_INVARIANTS.everyDueReminderSent(missing)).toEqual([]);
  });

  it('tiers: the largest minHours the notice reaches; none reached charges nothing', () => {
    const terms = {
      rules: [],
      penalties: [{ minHours: 24, percent: 50 }],
      noShowPercent: 100,
      dueMinutes: 60,
    };
    expect(tierPercent(terms, 30 * HOUR, 0)).toBe(50);
    expect(tierPercent(terms, 2 * HOUR, 0)).toBe(0);
    expect(tierPercent(POLICIES[0]!, 30 * HOUR, 0)).toBe(50);
    expect(tierPercent(POLICIES[0]!, HOUR, 0)).toBe(100);
  });

  it('mailNamesItsStart: a moved booking’s reminder email naming its old time', () => {
    const old = rightHistory();
    old.entries.splice(
      3,
      0,
      entry(4, { kind: 'move', ref: 0 }, 2_000, 200, { startsAt: iso(START + 60_000) }),
    );
    old.entries[4] = entry(3, { kind: 'cancel', ref: 0 }, 10_000, 200, {});
    old.reminders = [];
    old.eventsObserved = false;
    const violations = PAYMENT_INVARIANTS.mailNamesItsStart(old);
    expect(violations).toHaveLength(1);
    old.mails[0]!.subject = subjectFor(B + START + 60_000);
    old.mails[0]!.sentAt = B + 65_000;
    expect(PAYMENT_INVARIANTS.mailNamesItsStart(old)).toEqual([]);
  });

  it('remindersOnce and noReminderAfterEnd read the emails too when no event was watched', () => {
    const twice = rightHistory();
    twice.eventsObserved = false;
    twice.reminders = [];
    twice.mails.push({ ...twice.mails[0]!, messageId: 'r2@promemoria.coperto' });
    only('remindersOnce', twice);
    const late = rightHistory();
    late.eventsObserved = false;
    late.reminders = [];
    late.mails[0]!.sentAt = B + 11_000;
    only('noReminderAfterEnd', late);
  });

  it('unpaidPastDueCancelled: an unpaid booking kept past its due time, one cancelled for it though paid', () => {
    const unpaid = rightHistory();
    unpaid.entries = unpaid.entries.filter((e) => e.intent.kind !== 'webhook' && e.intent.kind !== 'cancel');
    unpaid.reads = [];
    unpaid.finals[0] = {
      ...unpaid.finals[0]!,
      state: 'pending',
      cancelledAt: null,
      guarantee: { ...guarantee, status: 'requested' },
    };
    unpaid.judgedAt = B + 20 * 60_000;
    unpaid.reminders = [];
    unpaid.mails = [];
    unpaid.entries[1]!.response.startsAt = iso(2 * HOUR);
    expect(PAYMENT_INVARIANTS.unpaidPastDueCancelled(unpaid)).toHaveLength(1);
    unpaid.finals[0] = {
      ...unpaid.finals[0]!,
      state: 'annullata',
      motivo: 'guarantee_not_provided',
      cancelledAt: iso(400 + 10 * 60_000 + 150),
      guarantee: { ...guarantee, status: 'released' },
    };
    expect(PAYMENT_INVARIANTS.unpaidPastDueCancelled(unpaid)).toEqual([]);
    // Its reminder (due at 5 s) owed only when the clock did not pass it in the same move as the due time.
    unpaid.reminders = [];
    unpaid.mails = [];
    unpaid.entries[1]!.response.startsAt = iso(START);
    expect(PAYMENT_INVARIANTS.everyDueReminderSent(unpaid)).toHaveLength(2);
    unpaid.advances = [{ at: B + 1_000, ms: 15 * 60_000 }];
    expect(PAYMENT_INVARIANTS.everyDueReminderSent(unpaid)).toEqual([]);
    // Sent just after the due time's cancellation: a violation, unless both fell due in the same move of the clock.
    unpaid.reminders = [
      {
        id: 'r9',
        bookingId: 'b0',
        hoursBefore: 1,
        dueAt: iso(5_000),
        time: iso(400 + 10 * 60_000 + 200),
        email: false,
      },
    ];
    unpaid.advances = [];
    expect(PAYMENT_INVARIANTS.noReminderAfterEnd(unpaid)).toHaveLength(1);
    unpaid.advances = [{ at: B + 1_000, ms: 15 * 60_000 }];
    expect(PAYMENT_INVARIANTS.noReminderAfterEnd(unpaid)).toEqual([]);
    const paidButCancelled = rightHistory();
    paidButCancelled.entries.pop();
    paidButCancelled.finals[0] = {
      ...paidButCancelled.finals[0]!,
      motivo: 'guarantee_not_provided',
      cancelledAt: iso(400 + 10 * 60_000 + 150),
    };
    expect(PAYMENT_INVARIANTS.unpaidPastDueCancelled(paidButCancelled)).toHaveLength(1);
  });

  it('stripeChargesOnce: a card charged under two keys, for another amount, or a deposit captured', () => {
    const held = () => {
      const h = rightHistory();
      const hold = { ...guarantee, mode: 'hold' as const, status: 'charged', charged: 6000 };
      h.finals[0]!.guarantee = hold;
      h.stripeCalls = [
        {
          method: 'POST',
          path: '/v1/payment_intents/pi_1/capture',
          idempotencyKey: 'coperto:t_x:b0:1:settle-capture',
          body: 'amount_to_capture=6000',
          status: 200,
        },
      ];
      return h;
    };
    expect(PAYMENT_INVARIANTS.stripeChargesOnce(held())).toEqual([]);
    const repeated = held();
    repeated.stripeCalls.push({ ...repeated.stripeCalls[0]! });
    expect(PAYMENT_INVARIANTS.stripeChargesOnce(repeated)).toEqual([]);
    const twice = held();
    twice.stripeCalls.push({ ...twice.stripeCalls[0]!, idempotencyKey: 'coperto:t_x:b0:2:settle-capture' });
    expect(PAYMENT_INVARIANTS.stripeChargesOnce(twice)).toHaveLength(1);
    const other = held();
    other.stripeCalls[0]!.body = 'amount_to_capture=3000';
    expect(PAYMENT_INVARIANTS.stripeChargesOnce(other)).toHaveLength(1);
    const never = held();
    never.stripeCalls = [];
    expect(PAYMENT_INVARIANTS.stripeChargesOnce(never)).toHaveLength(1);
    const deposit = held();
    deposit.finals[0]!.guarantee = { ...deposit.finals[0]!.guarantee!, mode: 'deposit' };
    only('stripeChargesOnce', deposit);
  });
});
