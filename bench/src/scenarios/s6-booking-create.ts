/**
 * 6. Booking creation throughput: POST /api/prenotazioni (distributed mode, on the MongoDB-protocol server)
 * against the raw `mongodb` driver's insertOne of an equivalent document (the stored booking with its pending
 * bookings.created event, as the outbox keeps it) on the same server, through the same proxy.
 */
import { randomUUID } from 'node:crypto';
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { loadMongo, type MongoDocument } from '../deps.js';
import { num, ratio } from '../format.js';
import { loadRows } from '../load-rows.js';
import { log } from '../log.js';
import {
  diffCounts,
  HOUSEKEEPING,
  waitForQuiet,
  type CommandCounts,
  type MongoProxy,
} from '../mongo-proxy-client.js';
import type { Proc } from '../processes.js';
import { compare } from '../rounds.js';
import type { DistributedStack } from '../stack-distributed.js';
import { mintToken } from '../tokens.js';

const TENANT = 'bench-s6';
const RAW_DATABASE = 'bench_raw';

/** The stored booking as written: record + tenantId + the outbox with its bookings.created event. */
function equivalentDocument(stored: MongoDocument): MongoDocument {
  const { _id, _outboxLease, ...doc } = stored;
  void _id;
  void _outboxLease;
  if (Array.isArray(doc._outbox) && doc._outbox.length > 0) return doc;
  const { tenantId, ...record } = doc;
  const eventId = randomUUID();
  return {
    ...doc,
    _outbox: [
      {
        id: eventId,
        subject: `tenant.${String(tenantId)}.restaurant.bookings.created`,
        body: {
          specversion: '1.0',
          id: eventId,
          source: 'coperto/prenotazione',
          type: 'bookings.created',
          time: new Date().toISOString(),
          tenantid: tenantId,
          subject: record.id,
          datacontenttype: 'application/json',
          data: record,
        },
      },
    ],
    _outboxAt: new Date().toISOString(),
  };
}

export async function scenario6(
  ctx: BenchContext,
  stack: DistributedStack,
  mongo: { url: string; database: string; proxy: MongoProxy; server: Proc },
) {
  await waitForQuiet(mongo.proxy, 30, 120_000);
  const token = await mintToken(ctx.jwtSecret, TENANT);
  const api = createApi(stack.baseUrl, token);
  const created = await api.call<{ id: string }>('POST', '/api/prenotazioni', {
    covers: 2,
    bookingDate: '2031-03-01T20:00:00',
    customerName: 'Ospite 0',
    durationMinutes: 90,
  });

  const { MongoClient } = await loadMongo();
  const client = await new MongoClient(mongo.url).connect();
  try {
    const stored = await client
      .db(mongo.database)
      .collection('prenotazioni')
      .findOne({ tenantId: TENANT, id: created.id });
    if (!stored) throw new Error('the created booking is not in prenotazioni');
    const doc = equivalentDocument(stored);
    const indexes = (await client.db(mongo.database).collection('prenotazioni').indexes()).filter(
      (index) => index.name !== '_id_',
    );
    /** An empty raw collection with the same indexes: before the first raw run and after each one. */
    const resetRaw = async () => {
      const raw = client.db(RAW_DATABASE);
      await raw.dropDatabase();
      for (const index of indexes) {
        await raw.collection('prenotazioni').createIndex(index.key, {
          ...(index.name ? { name: index.name } : {}),
          ...(index.unique ? { unique: true } : {}),
          ...(index.sparse ? { sparse: true } : {}),
        });
      }
    };
    await resetRaw();
    const docBytes = JSON.stringify(doc).length;
    log(
      `s6: raw document ≈ ${docBytes} B of JSON; ${indexes.length} indexes copied to ${RAW_DATABASE}.prenotazioni`,
    );
    await report(ctx, stack, { ...mongo, doc, docBytes, resetRaw, token });
  } finally {
    await client.close();
  }
}

async function report(
  ctx: BenchContext,
  stack: DistributedStack,
  run: {
    url: string;
    proxy: MongoProxy;
    server: Proc;
    doc: MongoDocument;
    docBytes: number;
    resetRaw: () => Promise<void>;
    token: string;
  },
) {
  const { config } = ctx;
  const days = Array.from({ length: 28 }, (_, i) => String(i + 1).padStart(2, '0'));
  /** Per run of ours: bookings created, and seconds after the run until the relays had published their events. */
  const drains: Array<{ created: number; runSeconds: number; seconds: number }> = [];
  let last = { created: 0, runSeconds: 0 };
  /** Store commands (client → server, through the proxy) from the start of our runs to the end of their drain. */
  const commands: Record<string, number> = {};
  let totalCreated = 0;
  let before: CommandCounts | null = null;
  const { a, b } = await compare(
    config,
    's6',
    {
      label: 'POST /api/prenotazioni',
      processes: [stack.gateway, stack.subgraphs.prenotazione, run.server, run.proxy.proc],
      // The bookings' events are published by the outbox relays after the responses: wait until they are
      // done, so that their work neither leaks into the raw rounds nor piles up over ours.
      settle: async () => {
        const seconds = await waitForQuiet(run.proxy, 30, 120_000);
        drains.push({ ...last, seconds });
        const after = await run.proxy.snapshot();
        for (const [command, n] of Object.entries(diffCounts(before!.commands, after.commands))) {
          if (!HOUSEKEEPING.has(command)) commands[command] = (commands[command] ?? 0) + n;
        }
        totalCreated += last.created;
        log(`s6: outbox relays idle ${seconds.toFixed(0)} s after the run (${last.created} bookings)`);
      },
      run: async (seconds) => {
        before = await run.proxy.snapshot();
        const result = await ctx.load.http({
          baseUrl: stack.baseUrl,
          requests: [
            {
              method: 'POST',
              path: '/api/prenotazioni',
              headers: { authorization: `Bearer ${run.token}` },
              body: '{"covers":2,"bookingDate":"2031-03-{{day}}T20:00:00","customerName":"Ospite {{n}}","durationMinutes":90}',
              choices: { day: days },
            },
          ],
          connections: config.connections,
          seconds,
          maxRequests: seconds * 20_000,
        });
        last = { created: result.ok, runSeconds: result.seconds };
        return result;
      },
    },
    {
      label: 'raw insertOne',
      processes: [ctx.load.proc, run.server, run.proxy.proc],
      // Emptied after each run: mongo-java-server keeps everything in its JVM heap.
      settle: run.resetRaw,
      run: (seconds) =>
        ctx.load.mongoInserts({
          url: run.url,
          database: RAW_DATABASE,
          collection: 'prenotazioni',
          doc: run.doc,
          concurrency: config.connections,
          seconds,
          maxRequests: seconds * 50_000,
        }),
    },
  );
  const largest = drains.reduce((x, y) => (y.created > x.created ? y : x), {
    created: 0,
    runSeconds: Number.NaN,
    seconds: Number.NaN,
  });
  const scenario = '6 booking creation, distributed, vs raw driver insertOne (same server)';
  ctx.rows.push(
    ...loadRows(scenario, a, b, {
      baselineLabel: 'insertOne',
      notes: [`${run.docBytes} B document`],
      cpu: { what: 'CPU per booking (all processes doing the work)' },
    }),
    row({
      scenario,
      what: 'store commands per booking (its events published included)',
      ours: num(Object.values(commands).reduce((x, y) => x + y, 0) / Math.max(1, totalCreated), 2),
      baseline: '1 (insert)',
      ratio: ratio(Object.values(commands).reduce((x, y) => x + y, 0) / Math.max(1, totalCreated), 1),
      notes:
        Object.entries(commands)
          .sort((x, y) => y[1] - x[1])
          .map(([command, n]) => `${command} ${(n / Math.max(1, totalCreated)).toFixed(2)}`)
          .join(', ') + ' (relay polls while waiting included)',
    }),
    row({
      scenario,
      what: 'outbox relays: wait after our largest round until its events were published',
      ours: `${largest.seconds.toFixed(0)} s`,
      baseline: `${largest.runSeconds.toFixed(0)} s (the round)`,
      ratio: ratio(largest.seconds, largest.runSeconds),
      notes:
        `${largest.created} bookings in that round: the relays published ≈` +
        `${num(largest.created / (largest.runSeconds + largest.seconds))} events/s while it created ` +
        `${num(largest.created / largest.runSeconds)}/s`,
    }),
  );
  ctx.method.push(
    `**6.** ${config.connections} autocannon connections creating bookings without tables (28 days, unique names) ` +
      `vs ${config.connections} concurrent insertOne loops of the official driver (in the load worker) writing the ` +
      `stored form of such a booking (record, tenantId, pending outbox event; fresh _id, id and codice each time) ` +
      `into another database with the same indexes, on the same mongo-java-server through the same proxy. After ` +
      `each of our runs the bench waits until the outbox relays have published the run's events (store quiet), ` +
      `so their work does not leak into the raw rounds; that wait is reported. CPU per booking counts the gateway, ` +
      `prenotazione, mongo-java-server and the proxy for ours (the events' publishing included), and the load ` +
      `worker (where the raw driver runs), mongo-java-server and the proxy for the baseline.`,
  );
}
