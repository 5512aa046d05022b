/**
 * 4. Status change → subscriber push latency: for each of `sockets` (default 100 and 1,000), that many
 * graphql-transport-ws sockets subscribed to tableStatusChanged on the gateway's /graphql, ~`pushRate` status changes per
 * second (PUT /api/tavoli/:id/status); p50/p99 of push latency (PUT sent → event at a socket) next to p50/p99
 * of the PUT itself. All sockets share one subscription group on the gateway (one tenant, one document).
 */
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num, percent, ratio } from '../format.js';
import type { PushRound } from '../load-types.js';
import { log } from '../log.js';
import { seedTables } from '../seed.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

export async function scenario4(
  ctx: BenchContext,
  mode: 'embedded' | 'distributed',
  stack: { baseUrl: string; wsUrl: string },
) {
  const token = await mintToken(ctx.jwtSecret, `bench-s4-${mode}`);
  const tables = await seedTables(createApi(stack.baseUrl, token), { rooms: 0, tables: 60 });
  for (const sockets of ctx.config.sockets) {
    await pushRows(ctx, mode, stack, {
      token,
      tableIds: tables.map((t) => t.id),
      sockets,
    });
  }
}

async function pushRows(
  ctx: BenchContext,
  mode: 'embedded' | 'distributed',
  stack: { baseUrl: string; wsUrl: string },
  run: { token: string; tableIds: string[]; sockets: number },
) {
  const { config } = ctx;
  const { token, sockets } = run;
  log(`s4 ${mode}: ${sockets} sockets, ${config.pushRate} status changes/s`);
  const result = await ctx.load.push({
    baseUrl: stack.baseUrl,
    wsUrl: stack.wsUrl,
    token,
    tableIds: run.tableIds,
    sockets,
    rate: config.pushRate,
    seconds: config.roundSeconds,
    rounds: config.rounds,
    warmupSeconds: config.warmupSeconds,
    timing: config.pushTiming,
  });
  for (const [i, r] of result.rounds.entries()) {
    log(
      `s4 ${mode} ${sockets} sockets round ${i + 1}: PUT p50 ${r.putP50.toFixed(1)} p99 ${r.putP99.toFixed(1)} ms; push p50 ` +
        `${r.pushP50.toFixed(1)} p99 ${r.pushP99.toFixed(1)} ms (first socket p50 ${r.firstP50.toFixed(1)} p99 ` +
        `${r.firstP99.toFixed(1)} ms); ${r.received}/${r.expected} events; ${r.rate.toFixed(0)}/s`,
    );
  }
  const m = (pick: (r: PushRound) => number) => median(result.rounds.map(pick));
  const received = result.rounds.reduce((s, r) => s + r.received, 0);
  const expected = result.rounds.reduce((s, r) => s + r.expected, 0);
  const closed = Object.entries(result.closed)
    .filter(([code]) => code !== '1000')
    .map(([code, n]) => `${n} closed with ${code}`);
  const scenario = `4 status change → push, ${num(sockets)} sockets, ${config.pushRate}/s, ${mode}`;
  ctx.rows.push(
    row({
      scenario,
      what: 'push latency p50 (vs PUT p50)',
      ours: ms(m((r) => r.pushP50)),
      baseline: ms(m((r) => r.putP50)),
      ratio: ratio(
        m((r) => r.pushP50),
        m((r) => r.putP50),
      ),
      notes:
        `${result.subscribed}/${sockets} sockets live, latency timed on ${result.measured} of them; ` +
        `${num(m((r) => r.rate))} changes/s sent; first socket an event reached: p50 ${ms(m((r) => r.firstP50))}`,
    }),
    row({
      scenario,
      what: 'push latency p99 (vs PUT p99)',
      ours: ms(m((r) => r.pushP99)),
      baseline: ms(m((r) => r.putP99)),
      ratio: ratio(
        m((r) => r.pushP99),
        m((r) => r.putP99),
      ),
      notes: [
        `${num(received)} of ${num(expected)} events delivered (${percent(received / expected)})`,
        `first socket an event reached: p99 ${ms(m((r) => r.firstP99))}`,
        ...closed,
      ].join('; '),
    }),
  );
  if (mode === 'embedded' && sockets === config.sockets[0]) {
    ctx.method.push(
      `**4.** One process (the load worker) opens the graphql-transport-ws sockets (token in the connection_init ` +
        `payload) and sends the PUTs open-loop at the target rate (at most 64 in flight), round-robin over 60 tables, ` +
        `each with a unique orderId that the event echoes; push latency = event received − PUT sent, same clock. A ` +
        `warm-up waits until every socket has seen an event. Embedded: in-process bus; distributed: the tavolo ` +
        `subgraph's outbox relay → NATS JetStream → the gateway. Latency is timed on every k-th socket (at most 100) ` +
        `and the others only count their frames; every socket's deliveries are counted. ` +
        (config.pushTiming === 'raw'
          ? `A timed socket times a frame when its bytes arrive (the orderId found by a byte search), as a screen ` +
            `of its own would: parsing 100 sockets' frames one after another through graphql-ws clients in one ` +
            `process added that process's work to the later sockets' latency (BENCH_PUSH_TIMING=graphql-ws times ` +
            `them that way). `
          : `Timed sockets are graphql-ws clients: a frame counts once the client has parsed it. `) +
        `The notes give, per event, the latency at the first timed socket it reached: the push without the ` +
        `fan-out's spread over the sockets.`,
    );
  }
}
