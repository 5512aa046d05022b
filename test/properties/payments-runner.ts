/**
 * Runs one generated payments program (payments-program.ts) against a stack through REST, GraphQL and the Stripe
 * webhook, as a back office, a guest's payment and Stripe would, and records its PaymentHistory: then lets its
 * reminders fall due, ends every booking still active, delivers the events still held (late), waits for the
 * guarantees to settle (bounded) and reads everything back.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { CloudEvent } from '@coperto/bus';
import { mintToken, newTenantId, type MailpitClient } from '@coperto/testkit';
import type { EventCollector, Stack } from '../support/stack.js';
import type {
  BookingRead,
  GuaranteeView,
  PayEntry,
  PayIntent,
  PaymentHistory,
  PolicyTerms,
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
  observe: (subject: string) => Promise<EventCollector>;
  mailpit: MailpitClient;
  /** The shared stacks' STRIPE_WEBHOOK_SECRET and a Stripe client to sign with (the SDK's test helper). */
  webhookSecret: string;
  signer: Stripe;
}

const HOUR = 3_600_000;
const LEAD_MS = { soon: HOUR, tomorrow: 30 * HOUR, later: 8 * 24 * HOUR } as const;
/** How long the runner waits for the service to catch up (a guarantee's intent, reminders, settlements). */
const CATCH_UP_MS = 12_000;
const ACTIVE = new Set(['pending', 'confermata', 'caparra_pagata']);
const SETTLING = new Set(['requested', 'authorized', 'paid']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const policyBody = (t: PolicyTerms) => ({
  rules: t.rules,
  penalties: t.penalties,
  noShowPercent: t.noShowPercent,
});

const READ = `query($id: ID!) { prenotazione(id: $id) { state startsAt cancelledAt
  guarantee { status mode amount charged refunded stripeIntentId createdAt }
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
  const { stack } = world;
  const tenant = newTenantId();
  const staff = await mintToken({ tenantId: tenant });
  const admin = await mintToken({ tenantId: tenant, admin: true });
  const h: PaymentHistory = {
    policies: [],
    entries: [],
    bookings: [],
    reminderHours: REMINDER_HOURS,
    reads: [],
    finals: [],
    stuckListed: [],
    reminders: [],
    mails: [],
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
      sentAt: Date.now(),
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
    entry.answeredAt = Date.now();
    return entry;
  };

  const read = async (ref: number): Promise<BookingRead | null> => {
    const id = h.bookings[ref]?.id;
    if (!id) return null;
    const res = await stack.graphql(staff, READ, { id });
    const b = res.body?.data?.prenotazione;
    if (!b) throw new Error(`reading booking ${ref}: ${JSON.stringify(res.body)}`);
    const view: BookingRead = { ref, at: Date.now(), ...b };
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
    const signature: Record<Signature, string | null> = {
      good: world.signer.webhooks.generateTestHeaderString({ payload, secret: world.webhookSecret }),
      wrong: world.signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' }),
      old: world.signer.webhooks.generateTestHeaderString({
        payload,
        secret: world.webhookSecret,
        timestamp: Math.floor(Date.now() / 1000) - 301,
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
      created: Math.floor(Date.now() / 1000),
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

  const run = async (step: PayStep) => {
    switch (step.kind) {
      case 'book': {
        const r = h.bookings.length;
        const email = `ospite${r}.${tenant}@example.com`.toLowerCase();
        const start = new Date(
          Date.now() + LEAD_MS[step.lead] + (step.lead === 'soon' ? step.offset * 1000 : 0),
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
        const start = new Date(Date.now() + HOUR + step.offset * 1000);
        await record({ kind: 'move', ref: r }, 'PATCH', `/api/prenotazioni/${id}`, {
          token: staff,
          body: { bookingDate: start.toISOString() },
        });
        await observed(r);
        return;
      }
      case 'advance':
        return sleep(step.ms);
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
      bookingDate: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
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
  const events = await world.observe(`tenant.${tenant}.restaurant.reminders.due`);
  try {
    await setPolicy(0);
    for (const step of program.steps) await run(step);
    await letRemindersFallDue(h, read);
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
    h.judgedAt = Date.now();
    for (const b of h.bookings) {
      const view = await read(b.ref);
      if (view) h.finals.push(view);
    }
    const stuck = await stack.api('GET', '/api/garanzie/bloccate', { token: staff });
    h.stuckListed = (stuck.body as Array<{ bookingId: string }>).map((g) => g.bookingId);
    const emails = new Set(h.bookings.map((b) => b.email));
    h.mails = (await world.mailpit.messages())
      .filter((m) => emails.has(m.To[0]?.Address ?? ''))
      .map((m) => ({ to: m.To[0]!.Address, messageId: m.MessageID }));
    h.reminders = events.received.map(reminderOf);
  } finally {
    events.stop();
  }
  return h;
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

async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + CATCH_UP_MS;
  while (!(await done()) && Date.now() < deadline) await sleep(100);
}

/** Waits for the last reminder due of the program's starts to pass, then for every due one to be done (bounded). */
async function letRemindersFallDue(h: PaymentHistory, read: (ref: number) => Promise<BookingRead | null>) {
  const dues = h.entries
    .filter(
      (e) => (e.intent.kind === 'book' || e.intent.kind === 'move') && e.status >= 200 && e.status < 300,
    )
    .flatMap((e) => h.reminderHours.map((hours) => Date.parse(e.response.startsAt) - hours * HOUR))
    .filter((due) => due < Date.now() + 60_000);
  const last = Math.max(0, ...dues);
  if (last > Date.now()) await sleep(last - Date.now() + 200);
  await until(async () => {
    const views = await Promise.all(h.bookings.map((b) => read(b.ref)));
    return views.every(
      (v) =>
        !v ||
        !ACTIVE.has(v.state) ||
        v.reminders.every((r) => r.status !== 'pending' || Date.parse(r.dueAt) > Date.now()),
    );
  });
}
