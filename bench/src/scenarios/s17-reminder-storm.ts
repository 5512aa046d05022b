/**
 * 17. A reminder storm with kill -9 (issue 38): BOOKINGS bookings over TENANTS tenants whose reminders all fall due
 * in the same minute, sent through a real SMTP server (mailpit), and promemoria's process killed with SIGKILL while
 * they are being sent. Embedded: the one process is killed each time another KILL_AT % of the emails have arrived
 * (KILLS times, each at a random moment of the next KILL_JITTER_MS) and started again on its data directory.
 * Distributed, two instances of every process on MongoDB, NATS and Redis: the promemoria instances are killed in
 * turn at the same points and started again. Then the bench waits until
 * promemoria reports no reminder pending and counts, per booking: reminders lost (an active booking's due reminder
 * with no email), sent twice (two emails for one booking and rule), the `reminders.due` events (delivered by the
 * webhooks subgraph to an endpoint of each tenant: one distinct event id per reminder), and how long it all took.
 * Not in the CI suite: `BENCH_ONLY=17 pnpm bench`. Tunables (BENCH_S17_*): BOOKINGS (2400), TENANTS (3), KILLS (2),
 * KILL_AT (25, % of the emails between kills), KILL_JITTER_MS (1000), LEAD_S_EMBEDDED / LEAD_S_DISTRIBUTED (150 /
 * 300: seconds from the upload to the due time, enough for promemoria to plan them all), DRAIN_S (600), MODES
 * (`embedded,distributed`).
 */
import { loadavg } from 'node:os';
import { createApi, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num } from '../format.js';
import { log } from '../log.js';
import type { Proc } from '../processes.js';
import { startMongo, startNats, startRedis } from '../servers.js';
import { everySubgraph, startDistributed } from '../stack-distributed.js';
import { startEmbedded } from '../stack-embedded.js';
import { mintToken } from '../tokens.js';
import { startReceiver, type DeliveredEvent, type Receiver } from './s15-receivers.js';
import { envInt } from './s15-webhook-fanout.js';
import {
  claimHistory,
  countStorm,
  mailCount,
  receivedMail,
  reminderStates,
  seedStormBookings,
  startMailpit,
  untilPlanned,
  type Mailpit,
  type StormCounts,
} from './s17-storm-parts.js';

export const STORM_HEADING = '## Scenario 17: a reminder storm, promemoria killed with SIGKILL';

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
const HOUR = 3_600_000;

/** kill -9 of the process (its group) and wait until it is gone. */
async function killHard(proc: Proc): Promise<void> {
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  while (proc.running()) await sleep(20);
  await proc.stop();
}

/** How many kills a storm makes (BENCH_S17_KILLS, default 2): one each KILL_AT % of the emails. */
const killCount = () => envInt('BENCH_S17_KILLS', 2);

/** What a mode gives the storm: the gateway, and the kills it makes when the emails pass each threshold. */
interface StormTarget {
  baseUrl: string;
  /** What the jobs' history says (distributed: read from MongoDB; embedded: null, the store is the process's own). */
  history(): Promise<Awaited<ReturnType<typeof claimHistory>> | null>;
  /** Kills (and starts again) a promemoria process; returns kill → ready in ms. */
  kills: Array<{ label: string; run: () => Promise<number> }>;
  stop(): Promise<void>;
}

interface StormResult {
  mode: string;
  counts: StormCounts;
  states: Record<string, number>;
  dueAt: number;
  killed: Array<{ label: string; atEmails: number; restartMs: number; at: number }>;
  deliveries: number;
  drainedAt: number;
  history: Awaited<ReturnType<StormTarget['history']>>;
  /** The 1-minute load average at the due time and when the storm was over. */
  load: [number, number];
}

const smtpEnv = (mailpit: Mailpit): Record<string, string> => ({
  SMTP_URL: mailpit.smtpUrl,
  SMTP_FROM: '"Trattoria Bench" <sala@s17.example>',
  PUBLIC_URL: 'https://coperto.s17.example',
  RESTAURANT_TIMEZONE: 'UTC',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_TENANT_RPS: '0',
});

async function embeddedTarget(ctx: BenchContext, mailpit: Mailpit): Promise<StormTarget> {
  const options = { name: 'gateway-s17', env: smtpEnv(mailpit) };
  let current = await startEmbedded(ctx.config, ctx.jwtSecret, options);
  const kill = {
    label: 'the embedded process',
    run: async () => {
      const at = performance.now();
      await killHard(current.proc);
      current = await startEmbedded(ctx.config, ctx.jwtSecret, options);
      return performance.now() - at;
    },
  };
  return {
    kills: Array.from({ length: killCount() }, () => kill),
    history: () => Promise.resolve(null),
    get baseUrl() {
      return current.baseUrl;
    },
    stop: () => current.proc.stop(),
  };
}

async function distributedTarget(ctx: BenchContext, mailpit: Mailpit): Promise<StormTarget> {
  const [mongo, nats, redis] = await Promise.all([
    startMongo(ctx.config),
    startNats(ctx.config),
    startRedis(ctx.config),
  ]);
  log('s17: starting two instances of every process');
  const stack = await startDistributed(ctx.config, {
    jwtSecret: ctx.jwtSecret,
    mongoUrl: mongo.url,
    natsUrl: nats.url,
    redisUrl: redis.url,
    database: 'coperto_s17',
    instances: 2,
    subgraphs: everySubgraph(ctx.config),
    env: smtpEnv(mailpit),
  });
  const byName = new Map(stack.instances.map((i) => [i.proc.name, i.proc]));
  const kill = (name: string) => async () => {
    const at = performance.now();
    await killHard(byName.get(name)!);
    byName.set(name, await stack.restart(name));
    return performance.now() - at;
  };
  return {
    baseUrl: stack.baseUrl,
    history: () => claimHistory(mongo.url, 'coperto_s17'),
    kills: Array.from({ length: killCount() }, (_, n) => ({
      label: `promemoria instance ${(n % 2) + 1} of 2`,
      run: kill(n % 2 ? 'promemoria#1' : 'promemoria'),
    })),
    stop: async () => {
      await Promise.all(
        [...byName.values(), stack.gateway, ...stack.instances.map((i) => i.proc)].map((p) => p.stop()),
      );
      await Promise.all([mongo.proc.stop(), nats.proc.stop(), redis.proc.stop()]);
    },
  };
}

async function runStorm(ctx: BenchContext, mode: 'embedded' | 'distributed'): Promise<StormResult> {
  const perTenant = Math.ceil(envInt('BENCH_S17_BOOKINGS', 2400) / envInt('BENCH_S17_TENANTS', 3));
  const tenantCount = envInt('BENCH_S17_TENANTS', 3);
  const leadSeconds = envInt(`BENCH_S17_LEAD_S_${mode.toUpperCase()}`, mode === 'embedded' ? 150 : 300);
  const killAt = envInt('BENCH_S17_KILL_AT', 25) / 100;
  const drainCap = envInt('BENCH_S17_DRAIN_S', 600);
  const jitterMs = envInt('BENCH_S17_KILL_JITTER_MS', 1000);
  const mailpit = await startMailpit(ctx.config, `mailpit-s17-${mode}`);
  const target =
    mode === 'embedded' ? await embeddedTarget(ctx, mailpit) : await distributedTarget(ctx, mailpit);
  const receivers: Receiver[] = [];
  try {
    // The bookings start at a whole minute; their one reminder (1 hour before) is due lead seconds from now or so.
    const dueAt = new Date(Math.ceil((Date.now() + leadSeconds * 1000) / 60_000) * 60_000);
    const startsAt = new Date(dueAt.getTime() + HOUR);
    const day = startsAt.toISOString().slice(0, 10);
    /** `<tenant>/<booking id>` → distinct reminders.due event ids. */
    const events = new Map<string, Set<string>>();
    const tenants: Array<{ api: Api; tenant: string }> = [];
    for (let k = 0; k < tenantCount; k++) {
      const tenant = `bench-s17-${mode}-${k}`;
      const api = createApi(target.baseUrl, await mintToken(ctx.jwtSecret, tenant, { admin: true }));
      await api.call('PUT', '/api/capacity/config', { promemoria: [{ orePrima: 1 }] });
      const receiver = await startReceiver(`s17-${tenant}`, (event: DeliveredEvent) => {
        const bookingId = (event.data as unknown as { prenotazione: { id: string } }).prenotazione.id;
        const key = `${tenant}/${bookingId}`;
        const ids = events.get(key) ?? new Set<string>();
        ids.add(event.id);
        events.set(key, ids);
      });
      const created = await api.call<{ secret: string }>('POST', '/api/webhooks', {
        url: receiver.url,
        eventi: ['reminders.due'],
      });
      receiver.setSecret(created.secret);
      receivers.push(receiver);
      tenants.push({ api, tenant });
    }
    log(
      `s17 ${mode}: ${perTenant * tenantCount} bookings at ${startsAt.toISOString()}, reminders due ${dueAt.toISOString()}`,
    );
    await Promise.all(tenants.map(({ api, tenant }) => seedStormBookings(api, tenant, perTenant, startsAt)));
    await untilPlanned(tenants, day, perTenant, dueAt.toISOString(), dueAt.getTime() - Date.now() - 2000);
    const owed = perTenant * tenantCount;
    log(
      `s17 ${mode}: all ${owed} planned, ${((dueAt.getTime() - Date.now()) / 1000).toFixed(0)} s before due`,
    );
    await sleep(Math.max(0, dueAt.getTime() - Date.now()));
    const loadAtDue = loadavg()[0]!;

    const killed: StormResult['killed'] = [];
    for (const [n, kill] of target.kills.entries()) {
      const threshold = Math.ceil(owed * killAt * (n + 1));
      let emails = await mailCount(mailpit);
      while (emails < threshold) {
        await sleep(100);
        emails = await mailCount(mailpit);
      }
      // At a random moment of the sending, not just after a batch's emails came in.
      await sleep(Math.random() * jitterMs);
      emails = await mailCount(mailpit);
      log(`s17 ${mode}: ${emails} emails: kill -9 of ${kill.label}`);
      const at = Date.now();
      const restartMs = await kill.run();
      killed.push({ label: kill.label, atEmails: emails, restartMs, at });
      log(`s17 ${mode}: ${kill.label} ready again in ${ms(restartMs)}`);
    }

    // Until promemoria reports none pending, then until the emails and events stop coming.
    const api = (t: { api: Api; tenant: string }) => createApi(target.baseUrl, t.api.token);
    const drainStart = Date.now();
    let states = (await Promise.all(tenants.map((t) => reminderStates(api(t), t.tenant, day)))).flat();
    while (states.some((s) => s.stato === 'pending') && Date.now() - drainStart < drainCap * 1000) {
      await sleep(2000);
      states = (await Promise.all(tenants.map((t) => reminderStates(api(t), t.tenant, day)))).flat();
    }
    const drainedAt = Date.now();
    let last = -1;
    for (;;) {
      const now = (await mailCount(mailpit)) + receivers.reduce((s, r) => s + r.counts.requests, 0);
      if (now === last) break;
      last = now;
      await sleep(5000);
    }
    const counts = countStorm(states, await receivedMail(mailpit), events);
    const byState: Record<string, number> = {};
    for (const s of states) byState[s.stato ?? 'none'] = (byState[s.stato ?? 'none'] ?? 0) + 1;
    return {
      mode,
      counts,
      states: byState,
      dueAt: dueAt.getTime(),
      killed,
      deliveries: receivers.reduce((s, r) => s + r.counts.requests, 0),
      drainedAt,
      history: await target.history(),
      load: [loadAtDue, loadavg()[0]!],
    };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    await target.stop();
    await mailpit.proc.stop();
  }
}

function figures(result: StormResult): Array<[string, string, string]> {
  const c = result.counts;
  const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
  const lastKill = result.killed.at(-1);
  return [
    [
      'reminders owed (active bookings, due at once)',
      num(c.owed),
      Object.entries(result.states)
        .map(([s, n]) => `${n} ${s}`)
        .join(', '),
    ],
    [
      'lost (no email) / sent twice (bookings; extra emails)',
      `${c.lost} / ${c.twiceBookings} (${c.extraEmails})`,
      `${c.sameMessageId} of the extra emails repeat the first one's Message-ID`,
    ],
    [
      'reminders.due events lost / twice (distinct ids per booking)',
      `${c.eventsLost} / ${c.eventsTwice}`,
      `${num(result.deliveries)} webhook deliveries for ${num(c.eventsOwed)} reminders`,
    ],
    ...result.killed.map((k): [string, string, string] => [
      `kill -9 of ${k.label} → ready again`,
      ms(k.restartMs),
      `after ${num(k.atEmails)} emails, ${seconds(result.dueAt, k.at)} after the due time`,
    ]),
    [
      'due time → first email / last email',
      `${seconds(result.dueAt, c.firstEmailAt)} / ${seconds(result.dueAt, c.lastEmailAt)}`,
      `${num(c.emailed / ((c.lastEmailAt - result.dueAt) / 1000), 1)} emails/s over the storm, kills included`,
    ],
    [
      'last kill → last email (catch-up)',
      lastKill ? seconds(lastKill.at, c.lastEmailAt) : 'n/a',
      'the killed claims are taken over after their 60 s lease',
    ],
    [
      'reminders taken over after a kill / claims whose owner was killed / emails claimed',
      result.history
        ? `${result.history.takenOver} / ${result.history.deadClaims} / ${num(result.history.sends)}`
        : 'n/a',
      result.history
        ? 'from the jobs’ history in MongoDB: the kills hit reminders in flight'
        : 'the embedded store is the process’s own: not read from outside',
    ],
    [
      'load average (1 min) at the due time / at the end',
      result.load.map((l) => l.toFixed(1)).join(' / '),
      '2 cores shared with other work',
    ],
  ];
}

export async function scenario17(ctx: BenchContext): Promise<void> {
  const results: StormResult[] = [];
  for (const mode of ['embedded', 'distributed'] as const) {
    if ((process.env.BENCH_S17_MODES ?? 'embedded,distributed').split(',').includes(mode))
      results.push(await runStorm(ctx, mode));
  }
  const lines: string[] = [];
  let bad = 0;
  for (const result of results) {
    const scenario = `17 reminder storm, kill -9 (${result.mode})`;
    const rows = figures(result);
    for (const [what, ours, notes] of rows)
      ctx.rows.push(row({ scenario, what, ours, baseline: '', ratio: '', notes }));
    lines.push(
      `### ${result.mode}`,
      '',
      '| figure | value | notes |',
      '| --- | --- | --- |',
      ...rows.map(([w, o, n]) => `| ${w} | ${o} | ${n} |`),
      '',
    );
    bad +=
      result.counts.lost + result.counts.extraEmails + result.counts.eventsLost + result.counts.eventsTwice;
  }
  const method = `**17.** A real SMTP server (mailpit, every message kept) and the compiled processes with SMTP_URL, RESTAURANT_TIMEZONE=UTC and WEBHOOKS_ALLOW_PRIVATE=true. ${envInt('BENCH_S17_TENANTS', 3)} tenants, each with the reminder rule \`[{orePrima: 1}]\` (PUT /api/capacity/config), a webhook endpoint for \`reminders.due\` (a node:http server in the bench verifying each request with standardwebhooks) and its share of ${envInt('BENCH_S17_BOOKINGS', 2400)} bookings uploaded through POST /api/prenotazioni/batch, each with its own guest address, all starting in the same minute an hour and a few minutes ahead: their reminders all fall due in that minute. The bench waits until promemoria reports every reminder planned, then until the due time; each time another ${envInt('BENCH_S17_KILL_AT', 25)} % of the emails have reached mailpit (${killCount()} times), it kills promemoria's process with SIGKILL at a random moment of the next ${envInt('BENCH_S17_KILL_JITTER_MS', 1000)} ms and starts it again (embedded: the one process, on its data directory; distributed, two instances of every process: one promemoria instance, then the other, in turn). Then until promemoria reports none pending (prenotazioniGiorno { promemoria { stato } }) and the emails and deliveries stop coming; the counts are per booking, from mailpit's API by recipient.`;
  ctx.method.push(method);
  ctx.sections.set(
    STORM_HEADING,
    [
      STORM_HEADING,
      '',
      `Run of ${new Date().toISOString()} (\`BENCH_ONLY=17\`). ${bad === 0 ? 'Nothing lost, nothing sent twice.' : `**${bad} reminders lost or repeated (emails or events).**`} The machine is shared by other work: the times are noisy.`,
      '',
      ...lines,
      method,
    ].join('\n'),
  );
  if (bad > 0) throw new Error(`s17: ${bad} reminders lost or repeated`);
}
