/**
 * Generated erasure programs (docs/guests.md, "Privacy"; issue 39's "Done when"): each program, in a tenant of its
 * own, books (past and future, phones written in several ways, emails in any case), puts parties on the waitlist,
 * finishes bookings, merges guests and takes sync points, and erases guests in the middle. Afterwards every read
 * (REST bookings, guests, search, duplicates, waitlist, each guest's bookings and export), every sync page since
 * each sync point, every event published from each erasure on, and the same GraphQL reads asked before the erasure
 * (the gateway's read cache) are searched for each erased name, phone and email: none is found, except a name in
 * a record that carries a contact of another person of the same name. And linking never joins two guests that share
 * only a name: each person's records have one guest, and two persons' guests differ unless they were merged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudEvent } from '@coperto/bus';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES } from '../support/modes.js';
import type { EventCollector, Stack } from '../support/stack.js';
import { assertProperty, budget } from './budget.js';
import { startPropertyStack, type PropertyStack } from './stacks.js';

const plan = budget(process.env, 7_000);

/** Persons 0 and 1 share a name (never joined by it); 3 books with an email only. */
const NAMES = ['Maria Bianchi', 'Maria Bianchi', 'Niccolò Rossi', 'Ada Ferraro'];
const PHONE_FORMATS = [
  (n: string) => `+39 ${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`,
  (n: string) => n,
  (n: string) => `0039${n}`,
  (n: string) => `+39${n}`,
];

type Step =
  | { kind: 'book'; person: number; email: boolean; future: boolean; format: number; day: number }
  | { kind: 'finish'; booking: number; to: 'completata' | 'no_show' | 'annullata' }
  | { kind: 'wait'; person: number; format: number }
  | { kind: 'merge'; a: number; b: number }
  | { kind: 'sync' }
  /** `rush`: erase as soon as one record is linked, while the others' events may be on their way. */
  | { kind: 'erase'; person: number; rush: boolean };

const person = fc.integer({ min: 0, max: NAMES.length - 1 });
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      person,
      email: fc.boolean(),
      future: fc.boolean(),
      format: fc.nat(3),
      day: fc.integer({ min: 1, max: 28 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      booking: fc.nat(20),
      to: fc.constantFrom('completata' as const, 'no_show' as const, 'annullata' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), person, format: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), a: person, b: person }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sync' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('erase' as const), person, rush: fc.boolean() }),
  },
);
/** A program ends with an erasure, so that each one erases someone (or finds nothing to erase). */
const programArbitrary = fc.record({
  steps: fc.array(stepArbitrary, { minLength: 3, maxLength: 12 }),
  last: person,
  /** Seven digits each person's mobile number ends with (3<person>x xxx xxxx). */
  digits: fc.integer({ min: 1_000_000, max: 9_999_999 }),
});

interface Person {
  name: string;
  /** The national number (10 digits), or null for an email-only person. */
  phone: string | null;
  email: string;
  group: number;
  erased: boolean;
}
interface Identity {
  person: number;
  name: string;
  phone: string | null;
  email: string;
  erasedAt: string;
}

/** The objects in a JSON value (each checked on its own fields). */
function* objectsOf(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objectsOf(item);
  else if (value && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const item of Object.values(value)) yield* objectsOf(item);
  }
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Where an erased identity shows in `value`. A name beside the contact of another person of the same name is that
 * person's record (whose own erasure, if any, its contact's check covers).
 */
function leaksOf(value: unknown, erased: readonly Identity[], people: readonly Person[]): string[] {
  const found: string[] = [];
  for (const object of objectsOf(value)) {
    const texts = Object.values(object).filter((v): v is string => typeof v === 'string');
    const has = (needle: string) => texts.some((t) => t.toLowerCase().includes(needle.toLowerCase()));
    const hasPhone = (phone: string) => texts.some((t) => digitsOf(t).includes(phone));
    for (const who of erased) {
      if (who.phone && hasPhone(who.phone)) found.push(`phone of ${who.name}: ${JSON.stringify(object)}`);
      if (has(who.email)) found.push(`email ${who.email}: ${JSON.stringify(object)}`);
      const namesake = people.some(
        (p, i) => i !== who.person && p.name === who.name && ((p.phone && hasPhone(p.phone)) || has(p.email)),
      );
      if (has(who.name) && !namesake) found.push(`name ${who.name}: ${JSON.stringify(object)}`);
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const GUEST_READS = `{ ospiti(limite: 200) { id nome telefono email note }
  listaAttesa { id customerName customerPhone notes ospite { id nome telefono } }
  prenotazioni(filter: { dal: "2026-01-01", al: "2027-12-31" }) {
    id customerName customerPhone customerEmail notes ospite { id nome telefono email } } }`;

async function runProgram(
  stack: Stack,
  observe: (subject: string) => Promise<EventCollector>,
  program: { steps: Step[]; last: number; digits: number },
): Promise<void> {
  const tenant = newTenantId();
  const staff = await mintToken({ tenantId: tenant });
  const admin = await mintToken({ tenantId: tenant, admin: true });
  const api = async (method: string, path: string, body?: unknown, as = staff) =>
    stack.api(method, path, { token: as, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown, as = staff) => {
    const res = await api(method, path, body, as);
    if (res.status >= 300) throw new Error(`${method} ${path} ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const events = await observe(`tenant.${tenant}.restaurant.>`);
  const startedAt = new Date().toISOString();
  const people: Person[] = NAMES.map((name, i) => ({
    name,
    phone: i === 3 ? null : `34${i}${String((program.digits + i * 7919) % 10_000_000).padStart(7, '0')}`,
    email: `${name.split(' ')[0]!.normalize('NFD').replace(/\p{M}/gu, '')}.${program.digits}.${i}@Example.com`,
    group: i,
    erased: false,
  }));
  const bookings: Array<{ id: string; person: number; future: boolean; state: string }> = [];
  const entries: Array<{ id: string; person: number }> = [];
  const syncPoints = [startedAt];
  const erased: Identity[] = [];
  const groupOf = (i: number) => people.filter((p) => p.group === people[i]!.group);
  const guestOf = async (kind: 'prenotazione' | 'voceAttesa', id: string): Promise<string | null> => {
    const res = await stack.graphql(staff, `query($id: ID!) { r: ${kind}(id: $id) { ospite { id } } }`, {
      id,
    });
    return res.body.data?.r?.ospite?.id ?? null;
  };
  /**
   * The group's guest, once ospiti has linked every record of it (`rush`: the first one only), null when it has
   * none.
   */
  const linkedGuest = async (i: number, rush = false): Promise<string | null> => {
    const members = new Set(groupOf(i).map((p) => people.indexOf(p)));
    const records = [
      ...bookings.filter((b) => members.has(b.person)).map((b) => ['prenotazione', b.id] as const),
      ...entries.filter((e) => members.has(e.person)).map((e) => ['voceAttesa', e.id] as const),
    ];
    const ids = new Set<string>();
    for (const [kind, id] of rush ? records.slice(0, 1) : records)
      ids.add(await until(`the guest of ${id}`, () => guestOf(kind, id)));
    if (ids.size > 1)
      throw new Error(`person ${i}'s records have ${ids.size} guests: ${[...ids].join(', ')}`);
    return [...ids][0] ?? null;
  };
  const bookingIds = () => bookings.map((b) => b.id);
  const graphqlReads = async () => {
    const res = await stack.graphql(staff, GUEST_READS);
    if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL reads: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  for (const step of [...program.steps, { kind: 'erase' as const, person: program.last, rush: false }]) {
    if ('person' in step && people[step.person]!.erased) continue;
    const who = 'person' in step ? people[step.person]! : null;
    if (step.kind === 'book') {
      const phone = who!.phone ? PHONE_FORMATS[step.format]!(who!.phone) : undefined;
      const body = await ok('POST', '/api/prenotazioni', {
        customerName: who!.name,
        ...(phone ? { customerPhone: phone } : {}),
        ...(step.email || !phone ? { customerEmail: who!.email } : {}),
        covers: 2,
        bookingDate: `${step.future ? '2027-10' : '2026-02'}-${String(step.day).padStart(2, '0')}T20:00:00`,
        notes: `per ${who!.name}`,
      });
      bookings.push({ id: body.id, person: step.person, future: step.future, state: body.state });
    } else if (step.kind === 'wait') {
      if (!who!.phone) continue;
      const body = await ok('POST', '/api/attesa', {
        customerName: who!.name,
        customerPhone: PHONE_FORMATS[step.format]!(who!.phone),
        covers: 2,
        notes: `allergia di ${who!.name}`,
      });
      entries.push({ id: body.id, person: step.person });
    } else if (step.kind === 'finish') {
      const booking = bookings[step.booking % Math.max(1, bookings.length)];
      if (!booking || people[booking.person]!.erased || !['pending', 'confermata'].includes(booking.state))
        continue;
      if (step.to === 'annullata') await ok('POST', `/api/prenotazioni/${booking.id}/annulla`, {});
      else {
        if (booking.future) continue;
        if (booking.state === 'pending') await ok('POST', `/api/prenotazioni/${booking.id}/conferma`, {});
        await ok('POST', `/api/prenotazioni/${booking.id}/stato`, { nuovoStato: step.to });
      }
      booking.state = step.to;
    } else if (step.kind === 'sync') {
      syncPoints.push((await ok('GET', `/api/prenotazioni/sync?modifiedSince=${startedAt}`)).serverTime);
    } else if (step.kind === 'merge') {
      const [a0, b0] = [people[step.a]!, people[step.b]!];
      if (a0.erased || b0.erased || a0.group === b0.group) continue;
      const [a, b] = [await linkedGuest(step.a), await linkedGuest(step.b)];
      if (!a || !b) continue;
      await ok('POST', `/api/ospiti/${a}/unisci`, { ospiteId: b });
      for (const p of groupOf(step.b)) p.group = people[step.a]!.group;
    } else {
      const guest = await linkedGuest(step.person, step.rush);
      if (!guest) continue;
      const group = groupOf(step.person);
      const members = new Set(group.map((p) => people.indexOf(p)));
      for (const booking of bookings.filter((b) => members.has(b.person) && b.future)) {
        if (!['pending', 'confermata'].includes(booking.state)) continue;
        await ok('POST', `/api/prenotazioni/${booking.id}/annulla`, {});
        booking.state = 'annullata';
      }
      await graphqlReads();
      const erasedAt = new Date().toISOString();
      // 409 until ospiti has seen the cancellations of the bookings still to come.
      const done = await until('the erasure', async () => {
        const res = await api('POST', `/api/ospiti/${guest}/oblio`, undefined, admin);
        if (res.status === 409) return null;
        if (res.status !== 200) throw new Error(`oblio ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body;
      });
      expect(done).toMatchObject({ cancellato: true, nome: null, telefono: null, email: null });
      for (const p of group) {
        p.erased = true;
        erased.push({
          person: people.indexOf(p),
          name: p.name,
          phone: p.phone,
          email: p.email.toLowerCase(),
          erasedAt,
        });
      }
    }
  }
  if (erased.length === 0) return events.stop();
  // Every record has a phone or an email: each is linked in the end (those of a rushed erasure a moment later).
  const guests = new Set<string>();
  for (const b of bookings)
    guests.add(await until(`the guest of ${b.id}`, () => guestOf('prenotazione', b.id)));
  for (const e of entries) guests.add(await until(`the guest of ${e.id}`, () => guestOf('voceAttesa', e.id)));
  const reads: Array<[string, unknown]> = [];
  const read = async (path: string, as = staff) => reads.push([path, await ok('GET', path, undefined, as)]);
  await read('/api/prenotazioni?dal=2026-01-01&al=2027-12-31');
  for (const id of bookingIds()) await read(`/api/prenotazioni/${id}`);
  for (const id of entries.map((e) => e.id)) await read(`/api/attesa/${id}`);
  await read('/api/attesa');
  await read('/api/ospiti?limite=200');
  await read('/api/ospiti/duplicati');
  for (const who of erased) {
    for (const q of [who.email, ...(who.phone ? [who.phone.slice(-7), who.phone] : [])]) {
      const found = await ok('GET', `/api/ospiti?q=${encodeURIComponent(q)}`);
      expect(found, `search ${q} after the erasure`).toEqual([]);
    }
    await read(`/api/ospiti?q=${encodeURIComponent(who.name)}`);
  }
  for (const id of guests) {
    await read(`/api/ospiti/${id}`);
    await read(`/api/ospiti/${id}/prenotazioni`);
    await read(`/api/ospiti/${id}/esporta`, admin);
  }
  for (const since of syncPoints) await read(`/api/prenotazioni/sync?modifiedSince=${since}&limit=500`);
  reads.push(['graphql (asked before the erasure too)', await graphqlReads()]);
  const leaks = reads.flatMap(([where, body]) => leaksOf(body, erased, people).map((l) => `${where}: ${l}`));
  const firstErasure = erased.reduce((min, e) => (e.erasedAt < min ? e.erasedAt : min), erased[0]!.erasedAt);
  await sleep(50);
  const after = events.received.filter((e: CloudEvent) => e.time >= firstErasure);
  for (const event of after) {
    const erasedBefore = erased.filter((e) => e.erasedAt <= event.time);
    leaks.push(...leaksOf(event, erasedBefore, people).map((l) => `event ${event.type} ${event.time}: ${l}`));
  }
  events.stop();
  expect(leaks, leaks.join('\n')).toEqual([]);
  // Linking: one guest per group of persons (merges join groups), never the same guest for two groups.
  const guestOfGroup = new Map<number, Set<string>>();
  for (const b of bookings.filter((b) => !people[b.person]!.erased)) {
    const set = guestOfGroup.get(people[b.person]!.group) ?? new Set<string>();
    set.add((await guestOf('prenotazione', b.id))!);
    guestOfGroup.set(people[b.person]!.group, set);
  }
  const all = [...guestOfGroup.values()].flatMap((s) => [...s]);
  for (const set of guestOfGroup.values()) expect(set.size).toBe(1);
  expect(new Set(all).size).toBe(all.length);
}

describe.each(MODES)('generated erasures (%s mode)', (mode) => {
  let service: PropertyStack;
  beforeAll(async () => {
    service = await startPropertyStack(mode);
  });
  afterAll(async () => service?.close());

  it(
    'finds no erased name, phone or email in any read, sync page, later event, export or GraphQL answer',
    async () => {
      const { stack } = service;
      const observe = service.observe ?? (async (subject: string) => stack.events(subject));
      const property = fc.asyncProperty(programArbitrary, (program) => runProgram(stack, observe, program));
      const programs = await assertProperty(property, plan);
      console.info(`[props] erasures ${mode}: ${programs} programs`);
      expect(programs).toBeGreaterThan(0);
    },
    plan.testTimeoutMs,
  );

  // Found by a longer run (TORTURE_MINUTES=1.5, embedded, seed 1967896566): a waitlist entry linked while its
  // guest's erasure ran (after the erasure had read the guest's records, before it marked the guest erased) kept
  // its name and phone. The erasure now reads the links again after its mark, and the linker erases a record it
  // linked to a guest whose erasure began meanwhile. This replays the program found through REST; whether it meets
  // the race depends on timing: subgraphs/ospiti/test/erasure-race.test.ts interleaves both points deterministically.
  it('erases a waitlist entry linked while its guest was being erased (regression)', async () => {
    const { stack } = service;
    const observe = service.observe ?? (async (subject: string) => stack.events(subject));
    await runProgram(stack, observe, {
      steps: [
        { kind: 'wait', person: 2, format: 0 },
        { kind: 'wait', person: 2, format: 0 },
        { kind: 'merge', a: 1, b: 3 },
        { kind: 'erase', person: 2, rush: true },
        { kind: 'wait', person: 2, format: 2 },
      ],
      last: 1,
      digits: 1000023,
    });
  });
});
