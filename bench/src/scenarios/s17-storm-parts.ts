/**
 * The parts of scenario 17 (a reminder storm with kill -9) that do not depend on the mode: the SMTP server that
 * receives the reminders (mailpit, the one the tests use), the bookings whose reminders fall due at one minute,
 * the reminders' states as promemoria reports them, and the counts per booking.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql, mapLimit, type Api } from '../api.js';
import type { BenchConfig } from '../config.js';
import { loadMongo } from '../deps.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnProcess, waitUntil, type Proc } from '../processes.js';

const BATCH_ITEMS = 200;
const PAGE = 1000;

export interface Mailpit {
  proc: Proc;
  smtpUrl: string;
  apiUrl: string;
}

/** One received email as mailpit lists it. */
interface MailSummary {
  MessageID: string;
  Created: string;
  To: Array<{ Address: string }>;
}

/** mailpit from .cache/go-bin (scripts/install-test-servers.sh), keeping every message (`--max 0`, not 500). */
export async function startMailpit(config: BenchConfig, name: string): Promise<Mailpit> {
  const [smtp, http] = (await freePorts(2)) as [number, number];
  const dir = join(config.tmpDir, name);
  mkdirSync(dir, { recursive: true });
  const proc = spawnProcess(
    name,
    join(config.repoRoot, '.cache', 'go-bin', 'mailpit'),
    [
      '--smtp',
      `127.0.0.1:${smtp}`,
      '--listen',
      `127.0.0.1:${http}`,
      '--database',
      join(dir, 'mailpit.db'),
      '--max',
      '0',
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      '--quiet',
    ],
    { cwd: dir, env: {} },
  );
  const apiUrl = `http://127.0.0.1:${http}/api/v1`;
  await waitUntil(proc, 'its API', httpOk(`${apiUrl}/messages?limit=1`), 30_000);
  return { proc, smtpUrl: `smtp://127.0.0.1:${smtp}`, apiUrl };
}

async function mailpitPage(apiUrl: string, start: number, limit: number) {
  const response = await fetch(`${apiUrl}/messages?start=${start}&limit=${limit}`, {
    signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok) throw new Error(`mailpit messages: ${response.status}`);
  return (await response.json()) as { total: number; messages: MailSummary[] };
}

/** How many messages mailpit holds. */
export async function mailCount(mailpit: Mailpit): Promise<number> {
  return (await mailpitPage(mailpit.apiUrl, 0, 1)).total;
}

/** Every received message: recipient → the Message-IDs and arrival times of its emails. */
export async function receivedMail(
  mailpit: Mailpit,
): Promise<Map<string, Array<{ messageId: string; at: number }>>> {
  const byRecipient = new Map<string, Array<{ messageId: string; at: number }>>();
  for (let start = 0; ; start += PAGE) {
    const page = await mailpitPage(mailpit.apiUrl, start, PAGE);
    for (const message of page.messages)
      for (const to of message.To) {
        const list = byRecipient.get(to.Address.toLowerCase()) ?? [];
        list.push({ messageId: message.MessageID, at: Date.parse(message.Created) });
        byRecipient.set(to.Address.toLowerCase(), list);
      }
    if (page.messages.length < PAGE) return byRecipient;
  }
}

/** The guest address of booking `i` of a tenant: one address per booking, so an email names its booking. */
export const guestEmail = (tenant: string, i: number) => `g${i}@${tenant}.s17.example`;

/** `2030-06-14T20:00` of a UTC instant (the processes run with RESTAURANT_TIMEZONE=UTC). */
const localMinute = (at: Date) => at.toISOString().slice(0, 16);

/**
 * `count` bookings of the admin's tenant starting at `startsAt` (a whole minute, UTC), each with its own guest
 * address, through POST /api/prenotazioni/batch (the point-of-sale upload: no tables, so no table limits them).
 */
export async function seedStormBookings(api: Api, tenant: string, count: number, startsAt: Date) {
  const starts = Array.from({ length: Math.ceil(count / BATCH_ITEMS) }, (_, b) => b * BATCH_ITEMS);
  await mapLimit(starts, 1, async (start) => {
    const items = Array.from({ length: Math.min(BATCH_ITEMS, count - start) }, (_, k) => ({
      externalId: `s17-${start + k}`,
      covers: 2,
      bookingDate: localMinute(startsAt),
      customerName: `Ospite ${start + k}`,
      customerEmail: guestEmail(tenant, start + k),
      lingua: (start + k) % 2 ? 'en' : 'it',
    }));
    const answer = await api.call<{ results: Array<{ status: string; error: unknown }> }>(
      'POST',
      '/api/prenotazioni/batch',
      { items },
    );
    const refused = answer.results.filter((r) => r.status === 'failed');
    if (refused.length > 0) throw new Error(`s17: batch item refused: ${JSON.stringify(refused[0])}`);
  });
}

export interface ReminderState {
  /** `<tenant>/<booking id>` (a batch item's id comes from its externalId: two tenants may share one). */
  key: string;
  email: string | null;
  dueAt: string | null;
  stato: string | null;
}

/** Each active booking of the tenant's day and its (one) reminder, as promemoria reports it through the gateway. */
export async function reminderStates(api: Api, tenant: string, day: string): Promise<ReminderState[]> {
  const data = await graphql<{
    prenotazioniGiorno: Array<{
      id: string;
      customerEmail: string | null;
      promemoria: Array<{ dueAt: string; stato: string }>;
    }>;
  }>(
    `${api.baseUrl}/graphql`,
    api.token,
    `{ prenotazioniGiorno(data: "${day}") { id customerEmail promemoria { dueAt stato } } }`,
  );
  return data.prenotazioniGiorno.map((b) => ({
    key: `${tenant}/${b.id}`,
    email: b.customerEmail?.toLowerCase() ?? null,
    dueAt: b.promemoria[0]?.dueAt ?? null,
    stato: b.promemoria[0]?.stato ?? null,
  }));
}

/** Waits until every booking of every tenant has its reminder planned for `dueAt` (bounded). */
export async function untilPlanned(
  tenants: ReadonlyArray<{ api: Api; tenant: string }>,
  day: string,
  perTenant: number,
  dueAt: string,
  boundMs: number,
) {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const states = (await Promise.all(tenants.map((t) => reminderStates(t.api, t.tenant, day)))).flat();
    const planned = states.filter((s) => s.dueAt === dueAt && s.stato === 'pending').length;
    if (planned === tenants.length * perTenant) return;
    if (Date.now() > deadline)
      throw new Error(`s17: ${planned} of ${tenants.length * perTenant} reminders planned in time`);
    log(`s17: ${planned} of ${tenants.length * perTenant} reminders planned`);
    await new Promise((r) => setTimeout(r, 3000));
  }
}

export interface StormCounts {
  owed: number;
  emailed: number;
  lost: number;
  /** Bookings with more than one email, and the extra emails. */
  twiceBookings: number;
  extraEmails: number;
  /** Extra emails that repeated the first one's Message-ID (a receiver can drop them) / that did not. */
  sameMessageId: number;
  eventsOwed: number;
  eventsLost: number;
  /** Bookings with two distinct reminders.due event ids (repeats of one id are the bus's at-least-once). */
  eventsTwice: number;
  lastEmailAt: number;
  firstEmailAt: number;
}

/** The storm's outcome: the owed reminders (active bookings', due), the emails and events that came for them. */
export function countStorm(
  states: readonly ReminderState[],
  mail: Map<string, Array<{ messageId: string; at: number }>>,
  events: Map<string, Set<string>>,
): StormCounts {
  let emailed = 0;
  let twiceBookings = 0;
  let extraEmails = 0;
  let sameMessageId = 0;
  let eventsLost = 0;
  let eventsTwice = 0;
  let lastEmailAt = 0;
  let firstEmailAt = Number.POSITIVE_INFINITY;
  for (const state of states) {
    const emails = mail.get(state.email ?? '') ?? [];
    if (emails.length > 0) emailed++;
    if (emails.length > 1) {
      twiceBookings++;
      extraEmails += emails.length - 1;
      sameMessageId += emails.filter((e) => e.messageId === emails[0]!.messageId).length - 1;
    }
    for (const e of emails) {
      lastEmailAt = Math.max(lastEmailAt, e.at);
      firstEmailAt = Math.min(firstEmailAt, e.at);
    }
    const ids = events.get(state.key)?.size ?? 0;
    if (ids === 0) eventsLost++;
    if (ids > 1) eventsTwice++;
  }
  return {
    owed: states.length,
    emailed,
    lost: states.length - emailed,
    twiceBookings,
    extraEmails,
    sameMessageId,
    eventsOwed: states.length,
    eventsLost,
    eventsTwice,
    lastEmailAt,
    firstEmailAt,
  };
}

interface StoredJob {
  version: number;
  history: Array<{ event: string; claimId: string; version: number }>;
}

/**
 * From the jobs in MongoDB (distributed mode): the reminders whose last version was claimed more than once (taken
 * over after a kill), the claims that never ended (their owner killed), and the emails claimed (`promemoria_invii`).
 */
export async function claimHistory(mongoUrl: string, database: string) {
  const { MongoClient } = await loadMongo();
  const client = await new MongoClient(mongoUrl).connect();
  try {
    const db = client.db(database) as unknown as {
      collection(name: string): {
        find(filter: object, options?: object): { toArray(): Promise<StoredJob[]> };
        countDocuments(filter?: object): Promise<number>;
      };
    };
    const jobs = await db
      .collection('promemoria_jobs')
      .find({}, { projection: { version: 1, history: 1 } })
      .toArray();
    let takenOver = 0;
    let deadClaims = 0;
    for (const job of jobs) {
      const lines = job.history.filter((h) => h.version === job.version);
      const claims = lines.filter((h) => h.event === 'claimed');
      if (claims.length > 1) takenOver++;
      deadClaims += claims.filter(
        (c) => !lines.some((h) => h.event !== 'claimed' && h.claimId === c.claimId),
      ).length;
    }
    return { takenOver, deadClaims, sends: await db.collection('promemoria_invii').countDocuments() };
  } finally {
    await client.close();
  }
}
