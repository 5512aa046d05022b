/**
 * 5, at size: the embedded process on a DATA_DIR of its own, filled through the batch endpoint to 10,000 and then
 * BENCH_SIZE_BOOKINGS (200,000) bookings. At each size a write storm (16 writers creating bookings and moving
 * the notes of existing ones) is cut by kill -9 of the process group; the process is started again on the same
 * data and timed from spawn to ready (three starts, each after a kill -9), and every acknowledged write is read
 * back (the run fails otherwise). At the largest size its RSS is read idle after the restart. The baselines are
 * the same process's starts on its DATA_DIR before it holds any booking, and its idle RSS then.
 */
import { createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { mb, ms, ratio } from '../format.js';
import { log } from '../log.js';
import { directoryBytes } from '../memory.js';
import { startEmbedded, type EmbeddedStack } from '../stack-embedded.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

const NAME = 'gateway-size';
const SETTLE_MS = 10_000;
const BATCH_ITEMS = 500;
const BATCHES_IN_FLIGHT = 2;
/** Bookings are spread over this many days (a day's list answers at most 5,000). */
const DAYS = 200;
const FIRST_DAY = Date.UTC(2032, 0, 1);
const STORM_WRITERS = 16;
/** Acknowledged storm writes before the kill. */
const STORM_ACKS = 400;
/** Readiness polled this often while the restart is timed. */
const READY_POLL_MS = 10;
/** Starts timed at each size (the first right after the storm's kill, then kill -9 and start again). */
const START_SAMPLES = 3;

const day = (n: number) => new Date(FIRST_DAY + (n % DAYS) * 86_400_000).toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-US');

interface Acknowledged {
  inserts: string[];
  /** Booking id → the highest storm sequence number whose PATCH of its notes was acknowledged. */
  updates: Map<string, number>;
}

/** Spawn → ready of each start (wall clock), and the CPU time the process had used when it was ready. */
interface Starts {
  wallMs: number[];
  cpuMs: number[];
}

/**
 * Starts the process (its DATA_DIR may hold a killed one's data), kills it by SIGKILL and starts it again,
 * START_SAMPLES starts in all (the machine is shared: one start can take twice another); returns the last one.
 */
async function startsAfterKill(ctx: BenchContext): Promise<{ stack: EmbeddedStack; starts: Starts }> {
  const starts: Starts = { wallMs: [], cpuMs: [] };
  for (;;) {
    const spawned = performance.now();
    const stack = await startEmbedded(ctx.config, ctx.jwtSecret, { name: NAME, readyPollMs: READY_POLL_MS });
    starts.wallMs.push(performance.now() - spawned);
    starts.cpuMs.push((stack.proc.cpuSeconds() ?? Number.NaN) * 1000);
    if (starts.wallMs.length === START_SAMPLES) return { stack, starts };
    process.kill(-stack.proc.pid, 'SIGKILL');
    await stack.proc.stop();
  }
}

const list = (values: readonly number[]) => values.map((v) => ms(v)).join(', ');

/** Uploads bookings `from`…`to - 1` through POST /api/prenotazioni/batch; adds their ids to `ids`. */
async function fill(api: Api, from: number, to: number, ids: string[]) {
  const batches = Array.from(
    { length: Math.ceil((to - from) / BATCH_ITEMS) },
    (_, b) => from + b * BATCH_ITEMS,
  );
  let done = from;
  await mapLimit(batches, BATCHES_IN_FLIGHT, async (start) => {
    const items = Array.from({ length: Math.min(BATCH_ITEMS, to - start) }, (_, i) => ({
      covers: 2,
      bookingDate: `${day(start + i)}T20:00`,
      customerName: `Ospite ${start + i}`,
    }));
    const answer = await api.call<{ created: number; results: Array<{ id: string }> }>(
      'POST',
      '/api/prenotazioni/batch',
      { items },
    );
    if (answer.created !== items.length) throw new Error(`batch at ${start}: ${answer.created} created`);
    ids.push(...answer.results.map((result) => result.id));
    done += items.length;
    if (done % 20_000 < BATCH_ITEMS) log(`s5 size: ${count(done)} bookings uploaded`);
  });
}

/**
 * STORM_WRITERS writers, one request in flight each, alternate creating a booking and moving the notes of one of
 * their own earlier bookings forward; kill -9 of the process group once STORM_ACKS writes were acknowledged.
 */
async function stormThenKill(stack: EmbeddedStack, api: Api, targets: readonly string[]) {
  const acknowledged: Acknowledged = { inserts: [], updates: new Map() };
  let killed = false;
  const writer = async (w: number) => {
    for (let seq = 1; !killed; seq++) {
      try {
        if (seq % 2 === 1) {
          const created = await api.call<{ id: string }>('POST', '/api/prenotazioni', {
            covers: 2,
            bookingDate: `${day(seq)}T19:00`,
            customerName: `Storm ${w}-${seq}`,
          });
          acknowledged.inserts.push(created.id);
        } else {
          const id = targets[(w + STORM_WRITERS * seq) % targets.length]!;
          await api.call('PATCH', `/api/prenotazioni/${id}`, { notes: `storm ${seq}` });
          acknowledged.updates.set(id, seq);
        }
      } catch {
        return; // the process died: not acknowledged
      }
      if (!killed && acknowledged.inserts.length + acknowledged.updates.size >= STORM_ACKS) {
        killed = true;
        process.kill(-stack.proc.pid, 'SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: STORM_WRITERS }, (_, w) => writer(w)));
  await stack.proc.stop();
  return acknowledged;
}

/** Every uploaded booking and acknowledged insert is listed, every acknowledged notes update is there or overtaken. */
async function lostWrites(
  api: Api,
  uploaded: readonly string[],
  acknowledged: Acknowledged,
): Promise<string[]> {
  const notes = new Map<string, string | null>();
  await mapLimit(
    Array.from({ length: DAYS }, (_, d) => day(d)),
    2,
    async (date) => {
      const listed = await api.call<Array<{ id: string; notes: string | null }>>(
        'GET',
        `/api/prenotazioni?dal=${date}&al=${date}`,
      );
      for (const booking of listed) notes.set(booking.id, booking.notes);
    },
  );
  const sequence = (text: string | null | undefined) => Number(/^storm (\d+)$/.exec(text ?? '')?.[1] ?? 0);
  return [
    ...[...uploaded, ...acknowledged.inserts].filter((id) => !notes.has(id)).map((id) => `missing ${id}`),
    ...[...acknowledged.updates]
      .filter(([id, seq]) => sequence(notes.get(id)) < seq)
      .map(([id, seq]) => `update ${seq} of ${id} lost`),
  ];
}

export async function scenario5Size(ctx: BenchContext) {
  const scenario = '5 restart and memory at size (embedded process, own DATA_DIR)';
  const token = await mintToken(ctx.jwtSecret, 'bench-s5-size');
  const empty = await startsAfterKill(ctx);
  let stack = empty.stack;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const emptyIdle = stack.proc.rssBytes() ?? Number.NaN;
  log(`s5 size: starts with no bookings ${list(empty.starts.wallMs)}, idle ${mb(emptyIdle)}`);

  const ids: string[] = [];
  const sizes = [...new Set([Math.min(10_000, ctx.config.sizeBookings), ctx.config.sizeBookings])];
  for (const size of sizes) {
    await fill(createApi(stack.baseUrl, token), ids.length, size, ids);
    const acknowledged = await stormThenKill(stack, createApi(stack.baseUrl, token), ids.slice(0, 10_000));
    const held = ids.length + acknowledged.inserts.length;
    const restart = await startsAfterKill(ctx);
    stack = restart.stack;
    const api = createApi(stack.baseUrl, token);
    log(`s5 size: ${count(held)} bookings, started after kill -9 in ${list(restart.starts.wallMs)}`);
    let idle = Number.NaN;
    if (size === ctx.config.sizeBookings) {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      idle = stack.proc.rssBytes() ?? Number.NaN;
    }
    const lost = await lostWrites(api, ids, acknowledged);
    if (lost.length > 0)
      throw new Error(`${lost.length} acknowledged writes lost: ${lost.slice(0, 5).join('; ')}`);
    ids.push(...acknowledged.inserts);
    const dataBytes = directoryBytes(stack.dataDir);
    const [wall, cpu] = [median(restart.starts.wallMs), median(restart.starts.cpuMs)];
    const [emptyWall, emptyCpu] = [median(empty.starts.wallMs), median(empty.starts.cpuMs)];
    ctx.rows.push(
      row({
        scenario,
        what: `restart after kill -9 during a write storm, ${count(held)} bookings: spawn → ready (goal < 2 s)`,
        ours: ms(wall),
        baseline: `${ms(emptyWall)} (no bookings)`,
        ratio: ratio(wall, emptyWall),
        notes:
          `median of ${START_SAMPLES} starts: ${list(restart.starts.wallMs)} (no bookings: ` +
          `${list(empty.starts.wallMs)}); ${acknowledged.inserts.length} creations + ` +
          `${acknowledged.updates.size} updates acknowledged before the kill, every one there after it, and all ` +
          `${count(held)} bookings listed; DATA_DIR ${mb(dataBytes)}`,
      }),
      row({
        scenario,
        what: `the same starts: CPU time of the process until ready`,
        ours: ms(cpu),
        baseline: `${ms(emptyCpu)} (no bookings)`,
        ratio: ratio(cpu, emptyCpu),
        notes: `${list(restart.starts.cpuMs)} (no bookings: ${list(empty.starts.cpuMs)}); user + system, all threads`,
      }),
    );
    if (Number.isFinite(idle)) {
      ctx.rows.push(
        row({
          scenario,
          what: `${count(held)} bookings held: idle, ${SETTLE_MS / 1000} s after the restart (goal ≤ 160 MB)`,
          ours: mb(idle),
          baseline: `${mb(emptyIdle)} (no bookings, idle)`,
          ratio: ratio(idle, emptyIdle),
          notes:
            `≈ ${((idle - emptyIdle) / held).toFixed(0)} B of RSS per booking held; after reading every booking ` +
            `back once (${DAYS} day lists): ${mb(stack.proc.rssBytes())}`,
        }),
      );
    }
  }
  await stack.proc.stop();
  ctx.method.push(
    `**5 (size).** Its own embedded process (compiled, as \`pnpm start\`), on a DATA_DIR of its own, one tenant. ` +
      `Filled through POST /api/prenotazioni/batch (${BATCH_ITEMS} items, ${BATCHES_IN_FLIGHT} in flight, bookings ` +
      `spread over ${DAYS} days) to ${count(Math.min(10_000, ctx.config.sizeBookings))} and then ` +
      `${count(ctx.config.sizeBookings)} bookings (BENCH_SIZE_BOOKINGS). At each size ${STORM_WRITERS} writers ` +
      `(one request in flight each) alternate POST /api/prenotazioni and a PATCH of the notes of one of the first ` +
      `10,000 bookings; after ${STORM_ACKS} acknowledged writes the process group gets SIGKILL with writes in ` +
      `flight. Then the same process is started again on the same DATA_DIR: spawn → first 200 from ` +
      `/public/health/ready (polled every ${READY_POLL_MS} ms); killed by SIGKILL and started again, ` +
      `${START_SAMPLES} starts, median reported, against ${START_SAMPLES} starts (each after a SIGKILL) on the ` +
      `DATA_DIR before it holds any booking; with each start, the CPU time (user + system, /proc) the process ` +
      `had used when it was ready, the figure least disturbed by other work on the machine. ` +
      `Every booking uploaded or acknowledged is then listed (a list per day) and every acknowledged notes update ` +
      `found (or a later one of the same writer); a lost write fails the scenario. RSS idle is read ` +
      `${SETTLE_MS / 1000} s after the last restart, before anything is read back.`,
  );
}
