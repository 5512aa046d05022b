/**
 * 16. A webhook receiver down for DOWN_S (default ten minutes) while events keep coming, with a kill -9 of the
 * delivering process in the middle (issue 40), in embedded mode: the process is killed and started again on the
 * same data directory. Two endpoints of one tenant get every `tables.status` event: `down` stops listening (the
 * sender sees ECONNREFUSED) for DOWN_S, `up` answers throughout. Every request is verified with the
 * `standardwebhooks` package. Status changes are made through the REST API at RATE/s from BEFORE_S before the outage
 * to AFTER_S after it (during the restart they are refused: only acknowledged changes are owed). Then it waits (at
 * most DRAIN_S) until both endpoints have every acknowledged change's event. Figures: owed, delivered, lost,
 * duplicates, bad signatures per endpoint; how long `down` took to catch up once back; `up`'s latency during the
 * outage; kill → ready of the restarted process. Anything lost or badly signed fails the scenario.
 */
import { join } from 'node:path';
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num } from '../format.js';
import { log } from '../log.js';
import type { Proc } from '../processes.js';
import { seedTables } from '../seed.js';
import { percentile, sortedCopy } from '../stats.js';
import { mintToken } from '../tokens.js';
import { registerEndpoints, startReceiver, startStatusChanges, type Receiver } from './s15-receivers.js';
import { envInt, startWebhooksProcess } from './s15-webhook-fanout.js';

export const OUTAGE_HEADING = '## Scenario 16: a webhook receiver down, the delivering process killed';

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

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

interface Endpoint {
  receiver: Receiver;
  /** orderId → when its event arrived. */
  arrived: Map<string, number>;
  /** Latency (receipt − event time) of events that arrived while `down` was down. */
  duringOutage: number[];
}

export async function scenario16(ctx: BenchContext): Promise<void> {
  const downSeconds = envInt('BENCH_S16_DOWN_S', 600);
  const rate = envInt('BENCH_S16_RATE', 5);
  const beforeSeconds = envInt('BENCH_S16_BEFORE_S', 30);
  const afterSeconds = envInt('BENCH_S16_AFTER_S', 30);
  const drainCap = envInt('BENCH_S16_DRAIN_S', 300);
  const scenario = `16 webhook receiver down ${downSeconds} s, process killed (embedded)`;
  const dataDir = join(ctx.config.tmpDir, 'gateway-s16-data');

  let current = await startWebhooksProcess(ctx, 'gateway-s16', dataDir);
  let outage: { from: number; to: number } | null = null;
  const endpoints: Endpoint[] = [];
  try {
    const token = await mintToken(ctx.jwtSecret, 'bench-s16', { admin: true });
    const admin = createApi(current.baseUrl, token);
    const tableIds = (await seedTables(admin, { rooms: 0, tables: 20 })).map((t) => t.id);
    for (const name of ['down', 'up']) {
      const arrived = new Map<string, number>();
      const duringOutage: number[] = [];
      const receiver = await startReceiver(name, (event, receivedAt) => {
        if (!event.data.orderId) return;
        arrived.set(event.data.orderId, receivedAt);
        if (outage && receivedAt >= outage.from && receivedAt < outage.to)
          duringOutage.push(receivedAt - Date.parse(event.time));
      });
      endpoints.push({ receiver, arrived, duringOutage });
    }
    const [down, up] = endpoints as [Endpoint, Endpoint];
    const webhookIds = await registerEndpoints(admin, [down.receiver, up.receiver]);

    const changes = startStatusChanges({
      baseUrl: () => current.baseUrl,
      token,
      tableIds,
      rate,
      prefix: 's16',
    });
    log(
      `s16: ${rate} status changes/s; receiver "down" goes down in ${beforeSeconds} s for ${downSeconds} s`,
    );
    await sleep(beforeSeconds * 1000);
    await down.receiver.down();
    outage = { from: Date.now(), to: Number.POSITIVE_INFINITY };
    await sleep((downSeconds * 1000) / 2);

    log('s16: kill -9 of the process');
    const killedAt = performance.now();
    await killHard(current.proc);
    current = await startWebhooksProcess(ctx, 'gateway-s16-restarted', dataDir);
    const restartMs = performance.now() - killedAt;
    log(`s16: restarted in ${ms(restartMs)}`);
    await sleep(Math.max(0, outage.from + downSeconds * 1000 - Date.now()));

    await down.receiver.up();
    const backAt = Date.now();
    outage.to = backAt;
    const owedWhenBack = [...changes.acked.keys()].filter((id) => !down.arrived.has(id)).length;
    log(`s16: receiver "down" is back; ${owedWhenBack} of its events not delivered yet`);
    await sleep(afterSeconds * 1000);
    await changes.stop();

    const missing = (e: Endpoint) => [...changes.acked.keys()].filter((id) => !e.arrived.has(id));
    const drainStart = performance.now();
    while (endpoints.some((e) => missing(e).length > 0) && performance.now() - drainStart < drainCap * 1000)
      await sleep(500);
    // Caught up: the last of the events acknowledged before it came back arrived this long after.
    const ownedBeforeBack = [...changes.acked].filter(([, at]) => at < backAt).map(([id]) => id);
    const lastCatchUp = Math.max(...ownedBeforeBack.map((id) => down.arrived.get(id) ?? Number.NaN));
    const catchUpSeconds = (lastCatchUp - backAt) / 1000;
    // The delivery log of "down": nothing should have given up, nothing should be waiting.
    const logged = (stato: string) =>
      createApi(current.baseUrl, token).call<Array<{ tentativi: Array<{ errore: string | null }> }>>(
        'GET',
        `/api/webhooks/${webhookIds[0]}/consegne?stato=${stato}&limite=200`,
      );
    const [failedLog, waitingLog] = await Promise.all([logged('fallita'), logged('in_attesa')]);
    const figures: Array<[string, string, string]> = [
      [
        'status changes acknowledged / not acknowledged',
        `${num(changes.acked.size)} / ${num(changes.failed)}`,
        `${rate}/s for ${beforeSeconds + downSeconds + afterSeconds} s; the refused ones came while the process was down`,
      ],
      ['kill -9 → the restarted process ready', ms(restartMs), 'same DATA_DIR'],
      [
        '"down": events not yet delivered when it came back',
        num(owedWhenBack),
        `down ${downSeconds} s (ECONNREFUSED), the kill at ${downSeconds / 2} s into it`,
      ],
      [
        '"down": every event acknowledged before it came back, delivered within',
        Number.isFinite(catchUpSeconds) ? `${catchUpSeconds.toFixed(1)} s of its return` : 'not all',
        `its delivery log at the end: ${failedLog.length} fallita, ${waitingLog.length} in_attesa`,
      ],
      ...endpoints.flatMap((e): Array<[string, string, string]> => {
        const lost = missing(e).length;
        const extra = [...e.arrived.keys()].filter((id) => !changes.acked.has(id)).length;
        return [
          [
            `"${e.receiver.name}": delivered / owed / lost`,
            `${num(changes.acked.size - lost)} / ${num(changes.acked.size)} / ${lost}`,
            `${extra} more delivered whose change was not acknowledged (in flight at the kill)`,
          ],
          [
            `"${e.receiver.name}": duplicates / bad signatures (standardwebhooks)`,
            `${e.receiver.counts.duplicates} / ${e.receiver.counts.badSignatures}`,
            `${num(e.receiver.counts.requests)} requests`,
          ],
        ];
      }),
      [
        '"up": latency p50 / p99 / max during the outage (the kill included)',
        `${ms(percentile(sortedCopy(up.duringOutage), 50))} / ${ms(percentile(sortedCopy(up.duringOutage), 99))} / ${ms(Math.max(...up.duringOutage))}`,
        `${num(up.duringOutage.length)} deliveries`,
      ],
    ];
    for (const [what, ours, notes] of figures)
      ctx.rows.push(row({ scenario, what, ours, baseline: '', ratio: '', notes }));
    const method = `**16.** The embedded process (compiled, WEBHOOKS_ALLOW_PRIVATE=true), one tenant with 20 tables and two endpoints registered through POST /api/webhooks (\`tables.status\`), each a node:http server in the bench process verifying every request with \`standardwebhooks\`. ${rate} status changes/s (PUT /api/tavoli/:id/status, each with a unique orderId its event carries) for ${beforeSeconds} s, then "down" closes its port for ${downSeconds} s while the changes go on; ${downSeconds / 2} s into the outage the process is killed with SIGKILL and started again on its data directory; ${afterSeconds} s after "down" is back the changes stop and the bench waits (at most ${drainCap} s) for every acknowledged change's event at both endpoints.`;
    ctx.method.push(method);
    const lostTotal = endpoints.reduce((s, e) => s + missing(e).length, 0);
    const badTotal = endpoints.reduce((s, e) => s + e.receiver.counts.badSignatures, 0);
    ctx.sections.set(
      OUTAGE_HEADING,
      [
        OUTAGE_HEADING,
        '',
        `Run of ${new Date().toISOString()} (\`BENCH_ONLY=16\`, BENCH_S16_DOWN_S=${downSeconds}). ${lostTotal === 0 && badTotal === 0 ? 'Nothing lost, no bad signature.' : `**${lostTotal} lost, ${badTotal} bad signatures.**`} The machine is shared by other work.`,
        '',
        '| figure | value | notes |',
        '| --- | --- | --- |',
        ...figures.map(([what, ours, notes]) => `| ${what} | ${ours} | ${notes} |`),
        '',
        method,
      ].join('\n'),
    );
    log(
      `s16: ${lostTotal} lost, ${badTotal} bad signatures; caught up ${catchUpSeconds.toFixed(1)} s after return`,
    );
    if (lostTotal > 0 || badTotal > 0)
      throw new Error(`s16: ${lostTotal} events lost, ${badTotal} bad signatures`);
  } finally {
    await current.proc.stop();
    await Promise.all(endpoints.map((e) => e.receiver.close()));
  }
}
