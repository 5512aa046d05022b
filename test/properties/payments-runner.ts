/**
 * Runs one generated payments program (payments-program.ts) against the suite's stack (payments-stack.ts) through
 * REST, GraphQL and the Stripe webhook, as a back office, a guest's payment and Stripe would, and records its
 * PaymentHistory on the stack's virtual clock: then moves the clock past its reminders and due times, ends every
 * booking still active, delivers the events still held (late), waits for the guarantees to settle (bounded) and
 * reads everything back, with the emails and the requests the service made to Stripe.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { CloudEvent } from '@coperto/bus';
import {
  mintToken,
  newTenantId,
  type MailpitClient,
  type StripeMockWatch,
  type VirtualClock,
} from '@coperto/testkit';
import type { EventCollector, Stack } from '../support/stack.js';
import type {
  BookingRead,
  GuaranteeView,
  PayEntry,
  PayIntent,
  PaymentHistory,
  PolicyTerms,
  ReminderMail,
  Signature,
} from './payments-history.js';
import { MONEY_EVENT } from './payments-invariants.js';
import {
  POLICIES,
  REMINDER_HOURS,
  type Ending,
  type EventKind,
  type PayProgram,
  type PayStep,
} from './payments-program.js';

export interface PayWorld {
  stack: Stack;
  clock: VirtualClock;
  /** The requests the service made to Stripe. */
  stripe: StripeMockWatch;
  /** null: the stack's events cannot be watched from here (embedded mode runs as a child process). */
  observe: ((subject: string) => Promise<EventCollector>) | null;
  mailpit: MailpitClient;
  /** The shared stacks' STRIPE_WEBHOOK_SECRET and a Stripe client to sign with (the SDK's test helper). */
  webhookSecret: string;
  signer: Stripe;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const LEAD_MS = { soon: HOUR, tomorrow: 30 * HOUR, later: 8 * 24 * HOUR } as const;
/** How long the runner waits (real time) for the service to catch up (an intent, reminders, due times, settlements). */
const CATCH_UP_MS = 12_000;
/** Tokens outlive any run's advances of the clock. */
const TOKEN_LIFE = '30d';
/** The closing moves the clock past the reminders and due times within this reach (the `soon` bookings'). */
const CLOSING_REACH_MS = 3 * HOUR;

/** The next whole minute at or after `ms` (bookings start on whole minutes, as a guest picks them). */
const wholeMinute = (ms: number) => Math.ceil(ms / MINUTE) * MINUTE;
const ACTIVE = new Set(['pending', 'confermata', 'caparra_pagata']);
const SETTLING = new Set(['requested', 'authorized', 'paid']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const policyBody = (t: PolicyTerms) => ({
  rules: t.rules,
  penalties: t.penalties,
  noShowPercent: t.noShowPercent,
  dueMinutes: t.dueMinutes,
});

const READ = `query($id: ID!) { prenotazione(id: $id) { state startsAt cancelledAt motivo
  guarantee { status mode amount charged refunded stripeIntentId createdAt dueAt }
  reminders { hoursBefore dueAt status } } }`;

/** The Stripe event type a step delivers for a guarantee of `mode`. */
function eventType(kind: EventKind, mode: GuaranteeView['mode']): string {
  if (kind === 'money') return MONEY_EVENT[mode];
  if (kind === 'failed')
    return mode === 'saved_card' ? 'setup_intent.setup_failed' : 'payment_intent.payment_failed';
  return mode === 'deposit' ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded';
}

interface Delivery {
  intent: Extract<PayIntent, { kind: 'webhook' }>;
  payload: string;
}

export async function runPayProgram(world: PayWorld, program: PayProgram): Promise<PaymentHistory> {
  const { stack, clock } = world;
  const now = () => clock.now();
  const tenant = newTenantId();
  const staff = await mintToken({ tenantId: tenant, expiresIn: TOKEN_LIFE });
  const admin = await mintToken({ tenantId: tenant, admin: true, expiresIn: TOKEN_LIFE });
  const stripeFrom = world.stripe.requests().length;
  const h: PaymentHistory = {
    policies: [],
    entries: [],
    bookings: [],
    reminderHours: REMINDER_HOURS,
    reads: [],
    finals: [],
    stuckListed: [],
    reminders: [],
    eventsObserved: world.observe !== null,
    mails: [],
    advances: [],
    stripeCalls: [],
    judgedAt: 0,
  };
  const held: Delivery[] = [];
  const states = new Map<number, string>();

  const record = async (
    intent: PayIntent,
    method: string,
    path: string,
    request: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string },
  ): Promise<PayEntry> => {
    const entry: PayEntry = {
      id: h.entries.length,
      intent,
      method,
      path,
      ...(request.body === undefined ? {} : { body: request.body }),
      sentAt: now(),
      answeredAt: Number.NaN,
      status: 0,
      response: undefined,
    };
    h.entries.push(entry);
    try {
      const res = await stack.api(method, path, { openapi: request.raw === undefined, ...request });
      entry.status = res.status;
      entry.response = res.body;
    } catch (error) {
      entry.response = { transportError: String((error as Error).message ?? error) };
    }
    entry.answeredAt = now();
    return entry;
  };

  const read = async (ref: number): Promise<BookingRead | null> => {
    const id = h.bookings[ref]?.id;
    if (!id) return null;
    const res = await stack.graphql(staff, READ, { id });
    const b = res.body?.data?.prenotazione;
    if (!b) throw new Error(`reading booking ${ref}: ${JSON.stringify(res.body)}`);
    const view: BookingRead = { ref, at: now(), ...b };
    states.set(ref, b.state);
    return view;
  };
  const observed = async (ref: number) => {
    const view = await read(ref);
    if (view) h.reads.push(view);
    return view;
  };
  const ref = (n: number) => (h.bookings.length === 0 ? null : n % h.bookings.length);

  const setPolicy = async (version: number) => {
    const terms = POLICIES[version]!;
    const entry = await record({ kind: 'policy', version }, 'PUT', '/api/garanzie/politica', {
      token: admin,
      body: policyBody(terms),
    });
    h.policies.push({ version, terms, entry: entry.id });
  };
  const deliver = ({ intent, payload }: Delivery) => {
    // Signed at the stack's time, as Stripe's clock and the service's agree.
    const timestamp = Math.floor(now() / 1000);
    const signature: Record<Signature, string | null> = {
      good: world.signer.webhooks.generateTestHeaderString({
        payload,
        secret: world.webhookSecret,
        timestamp,
      }),
      wrong: world.signer.webhooks.generateTestHeaderString({
        payload,
        secret: 'whsec_not_ours',
        timestamp,
      }),
      old: world.signer.webhooks.generateTestHeaderString({
        payload,
        secret: world.webhookSecret,
        timestamp: timestamp - 301,
      }),
      none: null,
    };
    const header = signature[intent.signature];
    return record(intent, 'POST', '/webhooks/stripe', {
      raw: payload,
      headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
    });
  };
  /** The booking's guarantee once it has its intent; null when none is coming (no rule) or it did not in time. */
  const guaranteeOf = async (r: number): Promise<GuaranteeView | null> => {
    const deadline = Date.now() + CATCH_UP_MS;
    for (;;) {
      const view = await read(r);
      if (view?.guarantee?.stripeIntentId || !view || !ACTIVE.has(view.state)) return view?.guarantee ?? null;
      if (!view.guarantee && !mayGetGuarantee(r)) return null;
      if (Date.now() > deadline) return view.guarantee;
      await sleep(50);
    }
  };
  /** Whether a policy sent so far gives booking `r`'s party a rule (else no guarantee will come). */
  const mayGetGuarantee = (r: number) =>
    h.policies.some((p) => p.terms.rules.some((rule) => h.bookings[r]!.covers >= rule.minCovers));

  /** A Stripe event of kind `kind` for booking `r`'s intent (a made-up one when it has no guarantee). */
  const delivery = (r: number, g: GuaranteeView | null, kind: EventKind, signature: Signature): Delivery => {
    const mode = g?.mode ?? 'deposit';
    const intentId = g?.stripeIntentId ?? `pi_none_${randomBytes(6).toString('hex')}`;
    const type = eventType(kind, mode);
    const eventId = `evt_${randomBytes(9).toString('hex')}`;
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      created: Math.floor(now() / 1000),
      livemode: false,
      data: {
        object: {
          id: intentId,
          object: intentId.startsWith('seti_') ? 'setup_intent' : 'payment_intent',
          metadata: { tenantId: tenant, bookingId: h.bookings[r]!.id, tentativo: '1' },
          payment_method: mode === 'saved_card' ? 'pm_card_visa' : null,
        },
      },
    });
    return { intent: { kind: 'webhook', ref: r, eventId, type, intentId, signature }, payload };
  };
  const confirm = async (r: number) => {
    const id = h.bookings[r]!.id!;
    const e = await record({ kind: 'confirm', ref: r }, 'POST', `/api/prenotazioni/${id}/conferma`, {
      token: staff,
      body: {},
    });
    if (e.status === 200) states.set(r, e.response.state);
  };
  const end = async (r: number, how: Ending) => {
    const id = h.bookings[r]!.id!;
    if (how === 'cancel') {
      await record({ kind: 'cancel', ref: r }, 'POST', `/api/prenotazioni/${id}/annulla`, {
        token: staff,
        body: {},
      });
      return;
    }
    if (states.get(r) === 'pending') await confirm(r);
    await record({ kind: how, ref: r }, 'POST', `/api/prenotazioni/${id}/stato`, {
      token: staff,
      body: { nuovoStato: how === 'noShow' ? 'no_show' : 'completata' },
    });
  };

  /**
   * Moves the stack's clock, then waits (bounded, real time) until the service has done what fell due: no active
   * booking with a pending reminder or a requested guarantee past its time. Before it, waits until promemoria has
   * taken in every acknowledged change (each active booking's pending reminders due by its current start, an ended
   * booking's dropped), as the minutes the clock jumps over would have let it: a jump within milliseconds of a move
   * would otherwise meet the documented race of a move at the moment of sending (docs/reminders.md) on every move.
   */
  const advance = async (ms: number) => {
    await until(async () => {
      const views = await Promise.all(h.bookings.map((b) => read(b.ref)));
      return views.every((v) => !v || v.reminders.every((r) => r.status !== 'pending' || plannedFor(v, r)));
    });
    h.advances.push({ at: now(), ms });
    await clock.advance(ms);
    await until(async () => {
      const views = await Promise.all(h.bookings.map((b) => read(b.ref)));
      const t = now();
      return views.every(
        (v) =>
          !v ||
          !ACTIVE.has(v.state) ||
          (v.reminders.every((r) => r.status !== 'pending' || Date.parse(r.dueAt) > t) &&
            (v.guarantee?.status !== 'requested' || Date.parse(v.guarantee.dueAt) > t)),
      );
    });
  };

  const run = async (step: PayStep) => {
    switch (step.kind) {
      case 'book': {
        const r = h.bookings.length;
        const email = `ospite${r}.${tenant}@example.com`.toLowerCase();
        const start = new Date(
          wholeMinute(now() + LEAD_MS[step.lead] + (step.lead === 'soon' ? step.offset * 5 * MINUTE : 0)),
        );
        const e = await record({ kind: 'book', ref: r, covers: step.covers }, 'POST', '/api/prenotazioni', {
          token: staff,
          body: {
            covers: step.covers,
            bookingDate: start.toISOString(),
            customerName: `Ospite ${r}`,
            customerEmail: email,
          },
        });
        h.bookings.push({ ref: r, id: e.status === 201 ? e.response.id : null, email, covers: step.covers });
        if (e.status === 201) states.set(r, e.response.state);
        return;
      }
      case 'policy':
        return setPolicy(step.version);
      case 'race': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id || !ACTIVE.has(states.get(r) ?? '')) return;
        const g = await guaranteeOf(r);
        if (!g?.stripeIntentId) return;
        if (step.how !== 'cancel' && states.get(r) === 'pending') await confirm(r);
        await Promise.all([deliver(delivery(r, g, 'money', 'good')), end(r, step.how)]);
        await observed(r);
        return;
      }
      case 'event': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id) return;
        const g = await guaranteeOf(r);
        const d = delivery(r, g, step.event, step.signature);
        const copies = Array.from({ length: step.copies }, () => d);
        if (step.held) held.push(...copies);
        else if (step.together) await Promise.all(copies.map(deliver));
        else for (const c of copies) await deliver(c);
        await observed(r);
        return;
      }
      case 'release':
        for (const d of held.splice(0).reverse()) await deliver(d);
        return;
      case 'end': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id) return;
        await end(r, step.how);
        await observed(r);
        return;
      }
      case 'confirm': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id) return;
        await confirm(r);
        await observed(r);
        return;
      }
      case 'move': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id) return;
        const id = h.bookings[r]!.id!;
        const start = new Date(wholeMinute(now() + HOUR + step.offset * 5 * MINUTE));
        await record({ kind: 'move', ref: r }, 'PATCH', `/api/prenotazioni/${id}`, {
          token: staff,
          body: { bookingDate: start.toISOString() },
        });
        await observed(r);
        return;
      }
      case 'party': {
        const r = ref(step.booking);
        if (r === null || !h.bookings[r]!.id) return;
        const id = h.bookings[r]!.id!;
        await record({ kind: 'party', ref: r, covers: step.covers }, 'PATCH', `/api/prenotazioni/${id}`, {
          token: staff,
          body: { covers: step.covers },
        });
        await observed(r);
        return;
      }
      case 'advance':
        return advance(step.minutes * MINUTE);
    }
  };

  // The reminder rules live in capacity's config; promemoria takes them from its capacity.config.updated event. A
  // probe booking a month ahead shows when promemoria plans by them, so that no booking of the program is planned
  // by the default rule first.
  const settings = await stack.api('PUT', '/api/capacity/config', {
    token: admin,
    body: { promemoria: REMINDER_HOURS.map((orePrima) => ({ orePrima })) },
  });
  if (settings.status !== 200)
    throw new Error(`reminder settings: ${settings.status} ${JSON.stringify(settings.body)}`);
  const probe = await stack.api('POST', '/api/prenotazioni', {
    token: staff,
    body: {
      covers: 1,
      bookingDate: new Date(wholeMinute(now() + 30 * 24 * HOUR)).toISOString(),
      customerName: 'probe',
    },
  });
  if (probe.status !== 201) throw new Error(`probe booking: ${probe.status} ${JSON.stringify(probe.body)}`);
  const wanted = [...REMINDER_HOURS].sort((a, b) => a - b).join(',');
  await until(async () => {
    const res = await stack.graphql(
      staff,
      'query($id: ID!) { prenotazione(id: $id) { promemoria { orePrima } } }',
      {
        id: probe.body.id,
      },
    );
    const planned = (res.body.data?.prenotazione?.promemoria ?? []) as Array<{ orePrima: number }>;
    return (
      planned
        .map((r) => r.orePrima)
        .sort((a, b) => a - b)
        .join(',') === wanted
    );
  });
  const events = world.observe ? await world.observe(`tenant.${tenant}.restaurant.reminders.due`) : null;
  try {
    await setPolicy(0);
    for (const step of program.steps) await run(step);
    // Past every reminder and due time of the bookings still active within reach (the `soon` ones).
    const views = await Promise.all(h.bookings.map((b) => read(b.ref)));
    const dues = views
      .filter((v): v is BookingRead => v !== null && ACTIVE.has(v.state))
      .flatMap((v) => [
        ...v.reminders.filter((r) => r.status === 'pending').map((r) => Date.parse(r.dueAt)),
        ...(v.guarantee?.status === 'requested' ? [Date.parse(v.guarantee.dueAt)] : []),
      ])
      .filter((due) => due < now() + CLOSING_REACH_MS);
    const last = Math.max(0, ...dues);
    if (last >= now()) await advance(last - now() + MINUTE);
    for (const b of h.bookings) {
      if (b.id && ACTIVE.has((await read(b.ref))!.state))
        await end(b.ref, program.closing[b.ref % program.closing.length]!);
    }
    // Late: events held back until after their bookings ended.
    for (const d of held.splice(0).reverse()) await deliver(d);
    await until(async () => {
      const views = await Promise.all(h.bookings.map((b) => read(b.ref)));
      return views.every((v) => !v || !v.guarantee || !SETTLING.has(v.guarantee.status));
    });
    await sleep(100);
    h.judgedAt = now();
    for (const b of h.bookings) {
      const view = await read(b.ref);
      if (view) h.finals.push(view);
    }
    const stuck = await stack.api('GET', '/api/garanzie/bloccate', { token: staff });
    h.stuckListed = (stuck.body as Array<{ bookingId: string }>).map((g) => g.bookingId);
    h.mails = await mailsTo(world.mailpit, new Set(h.bookings.map((b) => b.email)));
    h.reminders = events?.received.map(reminderOf) ?? [];
    h.stripeCalls = world.stripe
      .requests()
      .slice(stripeFrom)
      .flatMap(({ method, path, idempotencyKey, body, status }) =>
        idempotencyKey?.startsWith(`coperto:${tenant}:`)
          ? [{ method, path, idempotencyKey, body, status }]
          : [],
      );
  } finally {
    events?.stop();
  }
  return h;
}

/** The emails to these addresses, with their subjects and Date headers. */
async function mailsTo(mailpit: MailpitClient, addresses: ReadonlySet<string>): Promise<ReminderMail[]> {
  const ours = (await mailpit.messages()).filter((m) => addresses.has(m.To[0]?.Address ?? ''));
  return Promise.all(
    ours.map(async (m) => {
      const whole = await mailpit.message(m.ID);
      return {
        to: m.To[0]!.Address,
        messageId: m.MessageID,
        subject: whole.Subject,
        sentAt: Date.parse(whole.Date),
      };
    }),
  );
}

function reminderOf(e: CloudEvent): PaymentHistory['reminders'][number] {
  const data = e.data as { prenotazione: { id: string }; hoursBefore: number; dueAt: string; email: boolean };
  return {
    id: e.id,
    bookingId: data.prenotazione.id,
    hoursBefore: data.hoursBefore,
    dueAt: data.dueAt,
    time: e.time,
    email: data.email,
  };
}

/** A pending reminder planned by the booking's current start, for a booking still active. */
function plannedFor(v: BookingRead, r: BookingRead['reminders'][number]): boolean {
  return ACTIVE.has(v.state) && Date.parse(r.dueAt) === Date.parse(v.startsAt) - r.hoursBefore * HOUR;
}

async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + CATCH_UP_MS;
  while (!(await done()) && Date.now() < deadline) await sleep(100);
}
