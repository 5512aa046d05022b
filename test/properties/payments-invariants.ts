/**
 * The invariants of guarantees, payments and reminders (issue 38's "Done when"), checked on a recorded
 * PaymentHistory (payments-history.ts) alone: the requests and their answers, the clock's advances, the reads of
 * each booking, the reminders.due events, the emails, the requests the service made to Stripe and the stuck list.
 * They restate the decisions ("Guarantees, payments, reminders") from outside: nothing here imports the service's
 * code. Each returns its violations, [] when it holds. Reminders are checked on each record that shows them: the
 * events (when watched) and the emails (every booking of a program has an address), with the one rule the suite
 * sets (REMINDER_HOURS), so that an email's start is its reminder.
 */
import {
  stripeBooking,
  stripeStep,
  type GuaranteeView,
  type PayEntry,
  type PaymentHistory,
  type PolicyTerms,
} from './payments-history.js';

/** The Stripe event that puts each mode's money (or card) in place. */
export const MONEY_EVENT: Record<GuaranteeView['mode'], string> = {
  deposit: 'payment_intent.succeeded',
  hold: 'payment_intent.amount_capturable_updated',
  saved_card: 'setup_intent.succeeded',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * How late (the stack's clock) a due reminder may go out, and an unpaid booking be cancelled, after the clock passed
 * the due time: the scheduler's wake-up and the store's writes on a loaded machine (the runner waits for them after
 * each move of the clock).
 */
export const REMINDER_GRACE_MS = 4_000;
/** The motivo of a booking its guarantee's due time cancelled. */
export const NOT_PROVIDED = 'guarantee_not_provided';
const ENDS = new Set(['cancel', 'noShow', 'complete']);
const ENDED_STATES = new Set(['annullata', 'no_show', 'completata']);

const ok = (e: PayEntry) => e.status >= 200 && e.status < 300;
const refOf = (e: PayEntry) => ('ref' in e.intent ? e.intent.ref : null);
const at = (iso: string) => Date.parse(iso);

/**
 * How a booking ended: a request of the program (sent, answered), or its guarantee's due time: due at the
 * guarantee's dueAt (where time running without jumps would have cancelled it), done at its cancelledAt.
 */
interface End {
  what: string;
  sentAt: number;
  answeredAt: number;
}

/**
 * The first end of booking `ref`: its first acknowledged end request, or the due time's cancellation when that came
 * first (a later `annulla` of the cancelled booking is a same-state no-op, answered 200).
 */
function endOf(h: PaymentHistory, ref: number): End | undefined {
  const request = h.entries.find((e) => refOf(e) === ref && ENDS.has(e.intent.kind) && ok(e));
  const final = h.finals.find((f) => f.ref === ref);
  const due =
    final?.motivo === NOT_PROVIDED && final.cancelledAt && final.guarantee
      ? { what: 'due time', sentAt: at(final.guarantee.dueAt), answeredAt: at(final.cancelledAt) }
      : undefined;
  const byRequest = request && { what: `${request.intent.kind} (#${request.id})`, ...request };
  if (!byRequest) return due;
  return due && due.sentAt < byRequest.sentAt ? due : byRequest;
}

/** Webhook deliveries of the booking's money event that the service applied (its guarantee secured by them). */
function appliedMoney(h: PaymentHistory, ref: number, g: GuaranteeView): PayEntry[] {
  return h.entries.filter(
    (e) =>
      e.intent.kind === 'webhook' &&
      e.intent.ref === ref &&
      ok(e) &&
      e.response?.esito === 'applied' &&
      e.intent.type === MONEY_EVENT[g.mode] &&
      e.intent.intentId === g.stripeIntentId,
  );
}

/**
 * The values that may have been in force at instant `t`: each sent before `t`, unless a later one was wholly
 * answered (sent after it was answered, answered before `t`).
 */
export function inForceAt<T>(
  items: ReadonlyArray<{ sentAt: number; answeredAt: number; value: T }>,
  t: number,
) {
  const sent = items.filter((i) => i.sentAt <= t);
  return sent
    .filter((i) => !sent.some((j) => j.sentAt > i.answeredAt && j.answeredAt < t))
    .map((i) => i.value);
}

/** Caparra_pagata only with money (or a card) in place, put there by a well-signed event of the booking's intent. */
export function depositStateOnlyWithMoney(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const r of [...h.reads, ...h.finals]) {
    if (r.state !== 'caparra_pagata') continue;
    const g = r.guarantee;
    if (!g || !['authorized', 'paid'].includes(g.status)) {
      found.push(`booking ${r.ref} read caparra_pagata with guarantee ${JSON.stringify(g)}`);
      continue;
    }
    if (!appliedMoney(h, r.ref, g).some((e) => e.sentAt < r.at))
      found.push(`booking ${r.ref} read caparra_pagata with no well-signed ${MONEY_EVENT[g.mode]} before it`);
  }
  return found;
}

/**
 * A badly signed delivery is 400; a well-signed one 2xx, never a 5xx (no service was down); money that arrives
 * after its booking's end was answered is answered `stuck`, never `applied`.
 */
export function webhookAnswers(h: PaymentHistory): string[] {
  const found = h.entries
    .filter((e) => e.intent.kind === 'webhook')
    .filter((e) => (e.intent.kind === 'webhook' && e.intent.signature === 'good' ? !ok(e) : e.status !== 400))
    .map((e) => `webhook #${e.id} (${JSON.stringify(e.intent)}) answered ${e.status}`);
  for (const f of h.finals) {
    const end = endOf(h, f.ref);
    if (!f.guarantee || !end) continue;
    for (const e of appliedMoney(h, f.ref, f.guarantee))
      if (e.sentAt > end.answeredAt)
        found.push(`webhook #${e.id}: money after booking ${f.ref}'s end answered applied`);
  }
  return found;
}

/** The terms a rule of `terms` gives a party, or null (no rule: no guarantee). */
function ruleFor(terms: PolicyTerms, covers: number) {
  return terms.rules.find((rule) => covers >= rule.minCovers) ?? null;
}

export function tierPercent(terms: PolicyTerms, startsAt: number, cancelledAt: number): number {
  const notice = (startsAt - cancelledAt) / HOUR;
  let best: { minHours: number; percent: number } | null = null;
  for (const tier of terms.penalties)
    if (notice >= tier.minHours && (best === null || tier.minHours > best.minHours)) best = tier;
  return best?.percent ?? 0;
}

const percentOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);

/** What a guarantee must read once its booking ended, by the terms it was made under. */
export function expectedSettlement(
  g: Pick<GuaranteeView, 'mode' | 'amount'>,
  secured: boolean,
  end: { state: string; cancelledAt: number | null },
  terms: PolicyTerms,
  startsAt: number,
): { status: string; charged: number; refunded: number } {
  if (!secured) return { status: 'released', charged: 0, refunded: 0 };
  const percent =
    end.state === 'no_show'
      ? terms.noShowPercent
      : end.state === 'annullata'
        ? tierPercent(terms, startsAt, end.cancelledAt!)
        : null;
  if (g.mode !== 'deposit') {
    const fee = percent === null ? 0 : percentOf(g.amount, percent);
    return fee === 0
      ? { status: 'released', charged: 0, refunded: 0 }
      : { status: 'charged', charged: fee, refunded: 0 };
  }
  const kept = percent === null ? g.amount : percentOf(g.amount, percent);
  const back = g.amount - kept;
  return { status: back > 0 && kept === 0 ? 'refunded' : 'charged', charged: kept, refunded: back };
}

/**
 * No booking charged twice or without a reason the policy gives: each guarantee was made under a policy in force
 * when it was asked for (amount and mode); once the booking ended it holds exactly what that policy's terms say for
 * how it ended (nothing unless money was in place before the end; stuck money is never charged).
 */
export function chargedOnlyForAReason(h: PaymentHistory): string[] {
  const found: string[] = [];
  const policies = h.policies.map((p) => {
    const e = h.entries[p.entry];
    return { sentAt: e?.sentAt ?? 0, answeredAt: e && ok(e) ? e.answeredAt : Infinity, value: p.terms };
  });
  for (const f of h.finals) {
    const g = f.guarantee;
    if (!g) continue;
    const booking = h.bookings[f.ref]!;
    const made = at(g.createdAt);
    if (g.charged > g.amount || g.charged + g.refunded > g.amount)
      found.push(`booking ${f.ref}: charged ${g.charged} and refunded ${g.refunded} of ${g.amount}`);
    const starts = inForceAt(startsOf(h, f.ref), made);
    const end = endOf(h, f.ref);
    const money = appliedMoney(h, f.ref, g);
    // The rule is the booked party's (the guarantee is asked for on the booking's creation); the amount is per cover
    // times a party the booking had: while requested it follows the party, once secured it stays.
    const parties = partiesOf(h, f.ref);
    const cutoff = end?.answeredAt ?? h.judgedAt;
    const had = parties.filter((p) => p.sentAt <= cutoff).map((p) => p.value);
    const candidates = inForceAt(
      policies.filter((p) => p.answeredAt !== Infinity),
      made,
    ).flatMap((terms) => {
      const rule = ruleFor(terms, booking.covers);
      if (!rule || !had.some((covers) => rule.amountPerCover * covers === g.amount)) return [];
      if (money.length === 0 && end && parties.length > 1) {
        const atEnd = inForceAt(parties, end.sentAt);
        if (!atEnd.some((covers) => rule.amountPerCover * covers === g.amount))
          found.push(
            `booking ${f.ref}: guarantee never paid, amount ${g.amount} did not follow the party (${atEnd.join(' or ')} at its end)`,
          );
      }
      return starts
        .filter(
          (s) =>
            g.mode === (rule.type === 'deposit' ? 'deposit' : s - made <= 5 * DAY ? 'hold' : 'saved_card'),
        )
        .map((startsAt) => ({ terms, startsAt }));
    });
    if (candidates.length === 0) {
      found.push(
        `booking ${f.ref}: guarantee ${JSON.stringify(g)} matches no policy in force when it was made`,
      );
      continue;
    }
    if (!ENDED_STATES.has(f.state)) {
      if (g.charged !== 0 || g.refunded !== 0)
        found.push(`booking ${f.ref} (${f.state}) charged before its end`);
      continue;
    }
    // In place before the end was sent: the end's terms apply. Sent after the end was answered: it came for a
    // booking already ended (stuck, never charged). Overlapping the end: either.
    const before = money.some((e) => !end || e.answeredAt < end.sentAt);
    const overlapping = money.some((e) => end && e.sentAt < end.answeredAt);
    const cases = before ? [true] : overlapping ? [true, false] : [false];
    if (cases.includes(false) && g.status === 'stuck' && g.charged === 0 && g.refunded === 0) continue;
    const cancelledAt = f.cancelledAt ? at(f.cancelledAt) : null;
    const wants = cases.flatMap((secured) =>
      candidates.map((c) =>
        expectedSettlement(g, secured, { state: f.state, cancelledAt }, c.terms, c.startsAt),
      ),
    );
    if (!wants.some((w) => w.status === g.status && w.charged === g.charged && w.refunded === g.refunded)) {
      found.push(
        `booking ${f.ref} ${f.state} (money in place before its end: ${cases.join(' or ')}): guarantee ${g.status} charged ${g.charged} refunded ${g.refunded}, the policy says one of ${JSON.stringify(wants)}`,
      );
    }
  }
  return found;
}

/** The booking's parties as its acknowledged book and party (PATCH covers) requests gave them. */
function partiesOf(h: PaymentHistory, ref: number) {
  return h.entries
    .filter((e) => refOf(e) === ref && (e.intent.kind === 'book' || e.intent.kind === 'party') && ok(e))
    .map((e) => ({ sentAt: e.sentAt, answeredAt: e.answeredAt, value: e.response.covers as number }));
}

/** The booking's starts (UTC ms) as its acknowledged book and move answers gave them. */
function startsOf(h: PaymentHistory, ref: number) {
  return h.entries
    .filter((e) => refOf(e) === ref && (e.intent.kind === 'book' || e.intent.kind === 'move') && ok(e))
    .map((e) => ({ sentAt: e.sentAt, answeredAt: e.answeredAt, value: at(e.response.startsAt as string) }));
}

/** Every guarantee of an ended booking ends settled (released, refunded, charged) or stuck and listed for staff. */
export function everyGuaranteeEnds(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const f of h.finals) {
    const g = f.guarantee;
    if (!g || !ENDED_STATES.has(f.state)) continue;
    if (['released', 'refunded', 'charged'].includes(g.status)) continue;
    const id = h.bookings[f.ref]!.id!;
    if (g.status === 'stuck' && h.stuckListed.includes(id)) continue;
    found.push(
      `booking ${f.ref} ${f.state}: guarantee ${g.status}${g.status === 'stuck' ? ', not listed' : ''}`,
    );
  }
  return found;
}

/** A reminder that went out, as one record shows it: the booking and the start it reminded of, and when. */
interface SentReminder {
  label: string;
  bookingId: string;
  startsAt: number;
  /** The service's clock when it went out (an email's Date header: whole seconds, so up to 1 s before it). */
  time: number;
}

const SECOND = 1_000;

/** The reminders.due events (empty when they were not watched). */
function eventReminders(h: PaymentHistory): SentReminder[] {
  return h.reminders.map((r) => ({
    label: `reminder event ${r.id}`,
    bookingId: r.bookingId,
    startsAt: at(r.dueAt) + r.hoursBefore * HOUR,
    time: at(r.time),
  }));
}

/** A start as a guest reads it in a reminder (the service's zone and both languages' formats). */
export function startAsWritten(startsAt: number, timeZone: string): string[] {
  return ['it-IT', 'en-GB'].map((locale) =>
    new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(startsAt)),
  );
}

/** The time zone of the suite's stacks (test/support/stack.ts RESTAURANT_TIMEZONE). */
export const STACK_TIME_ZONE = 'Europe/Rome';

/**
 * The emails as reminders: each to its booking's guest, for the start its subject names among the starts the
 * booking was given (an email naming none is reported by mailNamesItsStart).
 */
function mailReminders(h: PaymentHistory): SentReminder[] {
  return h.mails.flatMap((m) => {
    const booking = h.bookings.find((b) => b.email === m.to);
    const start = booking && startsOf(h, booking.ref).find((s) => namesStart(m.subject, s.value));
    return booking?.id && start
      ? [{ label: `email ${m.messageId}`, bookingId: booking.id, startsAt: start.value, time: m.sentAt }]
      : [];
  });
}

const namesStart = (subject: string, startsAt: number) =>
  startAsWritten(startsAt, STACK_TIME_ZONE).some((text) => subject.endsWith(text));

/** Each record that shows reminders: the emails always, the events when they were watched. */
function reminderRecords(h: PaymentHistory): Array<{ name: string; sent: SentReminder[] }> {
  return [
    { name: 'emails', sent: mailReminders(h) },
    ...(h.eventsObserved ? [{ name: 'events', sent: eventReminders(h) }] : []),
  ];
}

/**
 * No reminder sent twice: one event and one email per booking and start; one email per Message-ID; an event that
 * says it emailed has its email.
 */
export function remindersOnce(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const { name, sent } of reminderRecords(h)) {
    const seen = new Map<string, number>();
    for (const r of sent) {
      const key = `${r.bookingId} at ${new Date(r.startsAt).toISOString()}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const [key, n] of seen) if (n > 1) found.push(`${name}: the reminder of ${key} sent ${n} times`);
  }
  // (An email without its event is possible, and not a second reminder: a booking moved while its reminder was
  // being sent loses that claim's done mark, and with it the event; the new time's reminder comes with its own.)
  const mails = new Map<string, number>();
  for (const m of h.mails) mails.set(m.messageId, (mails.get(m.messageId) ?? 0) + 1);
  for (const [id, n] of mails) if (n > 1) found.push(`email ${id} sent ${n} times`);
  for (const r of h.reminders)
    if (r.email && !mails.has(`${r.id}@promemoria.coperto`))
      found.push(`reminder ${r.id} says email, none came`);
  return found;
}

/**
 * A reminder email names the start its booking had when it went out: one of the starts in force then (a moved
 * booking's email carries its new time, never the old one).
 */
export function mailNamesItsStart(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const m of h.mails) {
    const booking = h.bookings.find((b) => b.email === m.to);
    if (!booking) continue;
    const starts = startsOf(h, booking.ref);
    // Whole seconds: it went out within the second after its Date header.
    const inForce = [...inForceAt(starts, m.sentAt), ...inForceAt(starts, m.sentAt + SECOND)];
    if (!inForce.some((s) => namesStart(m.subject, s)))
      found.push(
        `email ${m.messageId} to booking ${booking.ref} at ${new Date(m.sentAt).toISOString()} says "${m.subject}"; its start then: ${inForce.map((s) => new Date(s).toISOString()).join(' or ')}`,
      );
  }
  return found;
}

/** No reminder goes out after its booking's end (cancellation, due time, no-show, completion) was acknowledged. */
export function noReminderAfterEnd(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const { sent } of reminderRecords(h))
    for (const r of sent) {
      const ref = h.bookings.find((b) => b.id === r.bookingId)?.ref;
      const end = ref === undefined ? undefined : endOf(h, ref);
      // Due within the same move of the clock as the guarantee that cancelled it: both fell due at once, and the
      // reminder may go out before promemoria hears of the cancellation (a race of two due times; found by the
      // suite, FC_SEED=-2033298707 under TORTURE, distributed).
      const due = r.startsAt - Math.min(...h.reminderHours) * HOUR;
      if (end?.what === 'due time' && sameJump(h, due, end.sentAt)) continue;
      if (end && end.answeredAt < r.time)
        found.push(
          `${r.label} of booking ${ref} sent at ${new Date(r.time).toISOString()}, after its end by ${end.what}`,
        );
    }
  return found;
}

/**
 * Every due reminder of an active booking sent: for each start a booking kept (from its book or move answer to
 * its next move or end), each rule's reminder due within it, with REMINDER_GRACE_MS before that start changed and
 * before the final reads, came, in each record (the events when watched, the emails).
 */
export function everyDueReminderSent(h: PaymentHistory): string[] {
  const found: string[] = [];
  const records = reminderRecords(h);
  for (const b of h.bookings) {
    const end = endOf(h, b.ref);
    const changes = h.entries
      .filter(
        (e) =>
          refOf(e) === b.ref &&
          ['move', ...ENDS].includes(e.intent.kind) &&
          e.status !== 400 &&
          e.status !== 409,
      )
      .map((e) => ({ id: e.id, sentAt: e.sentAt }));
    for (const s of h.entries.filter(
      (e) => refOf(e) === b.ref && ['book', 'move'].includes(e.intent.kind) && ok(e),
    )) {
      if (end && end.answeredAt < s.sentAt) continue; // a move of an ended booking: no reminder is owed
      const until = Math.min(
        h.judgedAt,
        ...changes.filter((c) => c.id > s.id).map((c) => c.sentAt),
        ...(end?.what === 'due time' ? [end.sentAt] : []),
      );
      const startsAt = at(s.response.startsAt as string);
      for (const hours of h.reminderHours) {
        const due = startsAt - hours * HOUR;
        if (due <= s.answeredAt || until - due < REMINDER_GRACE_MS) continue;
        // Due within the same move of the clock as the guarantee that cancelled it: both fell due at once, and the
        // cancellation may come first.
        if (end?.what === 'due time' && sameJump(h, due, end.sentAt)) continue;
        for (const { name, sent } of records)
          if (!sent.some((r) => r.bookingId === b.id && r.startsAt === startsAt))
            found.push(
              `booking ${b.ref}: its ${hours}-hour reminder due ${new Date(due).toISOString()} never came (${name})`,
            );
      }
    }
  }
  return found;
}

/** Whether two instants fell due in the same move of the clock (both passed at once). */
function sameJump(h: PaymentHistory, a: number, b: number): boolean {
  return h.advances.some((j) => j.at < Math.min(a, b) && Math.max(a, b) <= j.at + j.ms);
}

/**
 * A guarantee still unpaid at its due time cancels its booking (motivo guarantee_not_provided), and nothing else
 * does: a booking with no money event applied before its guarantee's due time, and not ended before it, ends
 * cancelled for that reason once the clock went REMINDER_GRACE_MS past it; a booking cancelled for that reason had
 * a guarantee due by then and no money applied before it.
 */
export function unpaidPastDueCancelled(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const f of h.finals) {
    const g = f.guarantee;
    const notProvided = f.state === 'annullata' && f.motivo === NOT_PROVIDED;
    if (!g) {
      if (notProvided) found.push(`booking ${f.ref} cancelled for ${NOT_PROVIDED} with no guarantee`);
      continue;
    }
    const due = at(g.dueAt);
    const money = appliedMoney(h, f.ref, g);
    const request = h.entries.find((e) => refOf(e) === f.ref && ENDS.has(e.intent.kind) && ok(e));
    if (notProvided) {
      if (at(f.cancelledAt!) < due)
        found.push(
          `booking ${f.ref} cancelled for ${NOT_PROVIDED} at ${f.cancelledAt}, before its due ${g.dueAt}`,
        );
      if (money.some((e) => e.answeredAt < due))
        found.push(
          `booking ${f.ref} cancelled for ${NOT_PROVIDED} though its money was in place before ${g.dueAt}`,
        );
      continue;
    }
    const owed =
      h.judgedAt - due >= REMINDER_GRACE_MS &&
      !money.some((e) => e.sentAt < due + REMINDER_GRACE_MS) &&
      !(request && request.sentAt < due + REMINDER_GRACE_MS);
    if (owed)
      found.push(
        `booking ${f.ref} (${f.state}, motivo ${f.motivo}): guarantee ${g.status} due ${g.dueAt} passed unpaid, not cancelled for ${NOT_PROVIDED}`,
      );
  }
  return found;
}

/** The amount a Stripe call takes from the guest (capture or off-session charge), or null for any other call. */
function chargeOf(c: PaymentHistory['stripeCalls'][number]): number | null {
  const form = new URLSearchParams(c.body);
  if (c.method === 'POST' && /^\/v1\/payment_intents\/[^/]+\/capture$/.test(c.path))
    return Number(form.get('amount_to_capture'));
  if (c.method === 'POST' && c.path === '/v1/payment_intents' && stripeStep(c).endsWith('charge_saved_card'))
    return Number(form.get('amount'));
  return null;
}

/**
 * No booking charged twice, by the record of what the service asked Stripe (not the amounts it reads back): per
 * booking at most one charge (a capture of the held card or an off-session charge of the saved one: one idempotency
 * key, however often it was sent) and one refund; each only for a booking that ended with money or a card in place,
 * of the amount its guarantee then shows charged (refunded); a deposit is never captured or charged again.
 */
export function stripeChargesOnce(h: PaymentHistory): string[] {
  const found: string[] = [];
  const byBooking = new Map<string, PaymentHistory['stripeCalls']>();
  for (const c of h.stripeCalls) {
    const id = stripeBooking(c);
    byBooking.set(id, [...(byBooking.get(id) ?? []), c]);
  }
  for (const b of h.bookings) {
    if (!b.id) continue;
    const calls = byBooking.get(b.id) ?? [];
    const f = h.finals.find((r) => r.ref === b.ref);
    const g = f?.guarantee ?? null;
    const charges = calls.filter((c) => chargeOf(c) !== null);
    const refunds = calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds');
    for (const [what, list] of [
      ['charged', charges],
      ['refunded', refunds],
    ] as const) {
      const keys = new Set(list.map((c) => c.idempotencyKey));
      if (keys.size > 1) found.push(`booking ${b.ref} ${what} ${keys.size} times: ${[...keys].join(', ')}`);
      const amounts = new Set(
        list.map((c) =>
          what === 'charged' ? chargeOf(c)! : Number(new URLSearchParams(c.body).get('amount')),
        ),
      );
      if (list.length === 0) {
        if (g && g.mode !== 'deposit' && what === 'charged' && g.charged > 0)
          found.push(
            `booking ${b.ref}: guarantee shows ${g.charged} charged, Stripe was never asked to charge it`,
          );
        continue;
      }
      if (!g || !f || !ENDED_STATES.has(f.state)) {
        found.push(`booking ${b.ref} (${f?.state}) ${what} at Stripe with no ended guarantee`);
        continue;
      }
      if (what === 'charged' && g.mode === 'deposit')
        found.push(`booking ${b.ref}: its deposit charged again at Stripe`);
      const shown = what === 'charged' ? g.charged : g.refunded;
      if (amounts.size !== 1 || !amounts.has(shown))
        found.push(
          `booking ${b.ref} ${what} ${[...amounts].join(' and ')} at Stripe, its guarantee shows ${shown}`,
        );
    }
  }
  for (const id of byBooking.keys())
    if (!h.bookings.some((b) => b.id === id))
      found.push(`Stripe called for ${id}, no booking of the program`);
  return found;
}

export const PAYMENT_INVARIANTS = {
  depositStateOnlyWithMoney,
  webhookAnswers,
  chargedOnlyForAReason,
  everyGuaranteeEnds,
  remindersOnce,
  mailNamesItsStart,
  noReminderAfterEnd,
  everyDueReminderSent,
  unpaidPastDueCancelled,
  stripeChargesOnce,
} as const;

/** Every violation of every invariant, each prefixed with the invariant's name. */
export function paymentViolations(h: PaymentHistory): string[] {
  return Object.entries(PAYMENT_INVARIANTS).flatMap(([name, check]) => check(h).map((v) => `[${name}] ${v}`));
}
