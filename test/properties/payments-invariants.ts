/**
 * The invariants of guarantees, payments and reminders (issue 38's "Done when"), checked on a recorded
 * PaymentHistory (payments-history.ts) alone: the requests and their answers, the reads of each booking, the
 * reminders.due events, the emails and the stuck list. They restate the decisions ("Guarantees, payments,
 * reminders") from outside: nothing here imports the service's code. Each returns its violations, [] when it holds.
 */
import type { GuaranteeView, PayEntry, PaymentHistory, PolicyTerms } from './payments-history.js';

/** The Stripe event that puts each mode's money (or card) in place. */
export const MONEY_EVENT: Record<GuaranteeView['mode'], string> = {
  deposit: 'payment_intent.succeeded',
  hold: 'payment_intent.amount_capturable_updated',
  saved_card: 'setup_intent.succeeded',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How late a due reminder may go out (the scheduler's wake-up and the store's write, on a loaded machine). */
export const REMINDER_GRACE_MS = 4_000;
const ENDS = new Set(['cancel', 'noShow', 'complete']);
const ENDED_STATES = new Set(['annullata', 'no_show', 'completata']);

const ok = (e: PayEntry) => e.status >= 200 && e.status < 300;
const refOf = (e: PayEntry) => ('ref' in e.intent ? e.intent.ref : null);
const at = (iso: string) => Date.parse(iso);

/** The first acknowledged request that ended booking `ref`. */
function endOf(h: PaymentHistory, ref: number): PayEntry | undefined {
  return h.entries.find((e) => refOf(e) === ref && ENDS.has(e.intent.kind) && ok(e));
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
    const candidates = inForceAt(
      policies.filter((p) => p.answeredAt !== Infinity),
      made,
    ).flatMap((terms) => {
      const rule = ruleFor(terms, booking.covers);
      if (!rule || rule.amountPerCover * booking.covers !== g.amount) return [];
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
    const end = endOf(h, f.ref);
    const money = appliedMoney(h, f.ref, g);
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

/** No reminder sent twice: one event per booking, rule and due time; one email per event, and one per event that says so. */
export function remindersOnce(h: PaymentHistory): string[] {
  const found: string[] = [];
  const seen = new Map<string, number>();
  for (const r of h.reminders) {
    const key = `${r.bookingId}/${r.hoursBefore}/${at(r.dueAt)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [key, n] of seen) if (n > 1) found.push(`reminder ${key} sent ${n} times`);
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

/** No reminder goes out after its booking's end (cancellation, no-show, completion) was acknowledged. */
export function noReminderAfterEnd(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const r of h.reminders) {
    const ref = h.bookings.find((b) => b.id === r.bookingId)?.ref;
    const end = ref === undefined ? undefined : endOf(h, ref);
    if (end && end.answeredAt < at(r.time))
      found.push(
        `reminder ${r.id} of booking ${ref} sent at ${r.time}, after its ${end.intent.kind} (#${end.id})`,
      );
  }
  return found;
}

/**
 * Every due reminder of an active booking sent: for each start a booking kept (from its book or move answer to
 * its next move or end), each rule's reminder due within it, with REMINDER_GRACE_MS before that start changed and
 * before the final reads, came as a reminders.due event for that due time.
 */
export function everyDueReminderSent(h: PaymentHistory): string[] {
  const found: string[] = [];
  for (const b of h.bookings) {
    const changes = h.entries.filter(
      (e) =>
        refOf(e) === b.ref &&
        ['move', ...ENDS].includes(e.intent.kind) &&
        e.status !== 400 &&
        e.status !== 409,
    );
    for (const s of h.entries.filter(
      (e) => refOf(e) === b.ref && ['book', 'move'].includes(e.intent.kind) && ok(e),
    )) {
      const ended = endOf(h, b.ref);
      if (ended && ended.id < s.id) continue; // a move of an ended booking: no reminder is owed
      const until = Math.min(h.judgedAt, ...changes.filter((c) => c.id > s.id).map((c) => c.sentAt));
      for (const hours of h.reminderHours) {
        const due = at(s.response.startsAt as string) - hours * HOUR;
        if (due <= s.answeredAt || until - due < REMINDER_GRACE_MS) continue;
        if (!h.reminders.some((r) => r.bookingId === b.id && r.hoursBefore === hours && at(r.dueAt) === due))
          found.push(
            `booking ${b.ref}: its ${hours}-hour reminder due ${new Date(due).toISOString()} never came`,
          );
      }
    }
  }
  return found;
}

export const PAYMENT_INVARIANTS = {
  depositStateOnlyWithMoney,
  webhookAnswers,
  chargedOnlyForAReason,
  everyGuaranteeEnds,
  remindersOnce,
  noReminderAfterEnd,
  everyDueReminderSent,
} as const;

/** Every violation of every invariant, each prefixed with the invariant's name. */
export function paymentViolations(h: PaymentHistory): string[] {
  return Object.entries(PAYMENT_INVARIANTS).flatMap(([name, check]) => check(h).map((v) => `[${name}] ${v}`));
}
