/**
 * 18. The whole day's times for one party (issue 37, docs/availability.md): `GET /api/disponibilita` (one date, a
 * party of 4, every time of the day) against one `POST /api/tavoli/verifica-disponibilita` (the same party at
 * 20:00), CPU per request of the serving processes, at 60 tables on a booked day (goal: at most 3×; asking slot by
 * slot would cost one check per slot); and the whole day for one room (`salaId`) of a 500-table restaurant (10 rooms
 * of 50, booked alike) against the 60-table figure (goal: within 1.2×). The embedded process always; the
 * distributed stack when main.ts starts it (its gateway, subgraphs and store server count as serving processes).
 */
import { createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num, ratio } from '../format.js';
import { log } from '../log.js';
import type { Proc } from '../processes.js';
import { BOOKING_DAY, seedAutoAssigned, seedTables, type Table } from '../seed.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

const COVERS = 4;
/** Auto-assigned bookings per table on the day (s10's booked month: 110 a day on 60 tables). */
const BOOKINGS_PER_TABLE = 110 / 60;
/** Over the default 28 slots of a day (lunch and dinner), 11 spreads the bookings over every one of them. */
const STRIDE = 11;
const SMALL = { tables: 60, rooms: 3, blocks: false };
const LARGE = { tables: 500, rooms: 10, blocks: true };
const WARMUP = 10;
/** Rounds of every probe in turn (the median is reported), each this many requests one after another. */
const ROUNDS = 5;
const PER_ROUND = 40;
/** Idle window before each round: the processes' background CPU (relay polls, heartbeats) taken out. */
const IDLE_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the scenario runs: a base URL and the processes whose CPU serves it. */
export interface DayTimesTarget {
  mode: 'embedded' | 'distributed';
  baseUrl: string;
  processes: readonly Proc[];
}

interface Probe {
  label: string;
  call: () => Promise<number>;
}

/** A probe's CPU per request (median round and every round) and wall time per request, in ms. */
interface Figure {
  cpu: number;
  each: number[];
  wall: number;
}

interface Restaurant {
  api: Api;
  tables: Table[];
  created: number;
  refused: number;
  /** Slots capacity opens on the day (the times a slot-by-slot client would check). */
  slots: number;
}

async function bookedRestaurant(
  ctx: BenchContext,
  baseUrl: string,
  tenant: string,
  shape: typeof SMALL,
): Promise<Restaurant> {
  const api = createApi(baseUrl, await mintToken(ctx.jwtSecret, tenant, { admin: true }));
  const tables = await seedTables(api, shape);
  // Pacing at every seat (as scenario 8): the 500-table restaurant's slots are not closed by the default cap of
  // covers per slot, which a restaurant of that size raises.
  const seats = tables.reduce((sum, t) => sum + t.seats, 0);
  await api.call('PUT', '/api/capacity/config', { maxCoversPerSlot: seats });
  const slots = await api.call<Array<{ startsAt: string }>>('GET', `/api/capacity/slots?date=${BOOKING_DAY}`);
  const seeded = await seedAutoAssigned(api, [slots], Math.round(BOOKINGS_PER_TABLE * shape.tables), STRIDE);
  return { api, tables, ...seeded, slots: slots.length };
}

const cpuOf = (processes: readonly Proc[]) =>
  processes.reduce((sum, p) => sum + (p.cpuSeconds() ?? NaN), 0) * 1000;

/**
 * CPU per request of each probe, in ms: ROUNDS rounds, each probe in turn PER_ROUND requests one after another,
 * less the background CPU rate of an idle window before the round; the median over rounds.
 */
async function cpuPerRequest(processes: readonly Proc[], probes: readonly Probe[]) {
  const samples = probes.map(() => [] as number[]);
  const wall = probes.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    const idleCpu = cpuOf(processes);
    const idleStart = performance.now();
    await sleep(IDLE_MS);
    const background = (cpuOf(processes) - idleCpu) / (performance.now() - idleStart);
    for (const [i, probe] of probes.entries()) {
      const cpu = cpuOf(processes);
      const began = performance.now();
      for (let k = 0; k < PER_ROUND; k++) await probe.call();
      const elapsed = performance.now() - began;
      samples[i]!.push((cpuOf(processes) - cpu - background * elapsed) / PER_ROUND);
      wall[i]!.push(elapsed / PER_ROUND);
    }
  }
  return probes.map((_, i): Figure => ({
    cpu: median(samples[i]!),
    each: samples[i]!,
    wall: median(wall[i]!),
  }));
}

/** Bookings of the day per table of each room (null: tables in no room), from the day's bookings read back. */
async function bookingsPerTable(api: Api, tables: readonly Table[]): Promise<Map<string | null, number>> {
  const bookings = await api.call<Array<{ tableIds: string[] }>>(
    'GET',
    `/api/prenotazioni?dal=${BOOKING_DAY}&al=${BOOKING_DAY}`,
  );
  const roomOf = new Map(tables.map((t) => [t.id, t.salaId]));
  const count = new Map<string | null, number>();
  for (const b of bookings) {
    const room = roomOf.get(b.tableIds[0]!) ?? null;
    count.set(room, (count.get(room) ?? 0) + 1);
  }
  const size = new Map<string | null, number>();
  for (const t of tables) size.set(t.salaId, (size.get(t.salaId) ?? 0) + 1);
  return new Map([...size].map(([room, n]) => [room, (count.get(room) ?? 0) / n]));
}

export async function scenario18(ctx: BenchContext, target: DayTimesTarget): Promise<void> {
  const began = Date.now();
  const tag = `bench-s18-${target.mode}`;
  // One tenant after the other: in the distributed mode two seedings at once made subgraph calls time out (503).
  const small = await bookedRestaurant(ctx, target.baseUrl, `${tag}-60`, SMALL);
  const large = await bookedRestaurant(ctx, target.baseUrl, `${tag}-500`, LARGE);
  // Auto-assignment fills rooms in tavolo's order: the first rooms are full, the last nearly empty. The room asked
  // is the one booked most like the 60-table restaurant (bookings per table); the fullest is measured beside it.
  const smallLoad = [...(await bookingsPerTable(small.api, small.tables)).values()];
  const smallPerTable = smallLoad.reduce((a, b) => a + b, 0) / smallLoad.length;
  const rooms = [...(await bookingsPerTable(large.api, large.tables))];
  const alike = rooms.reduce((a, b) =>
    Math.abs(b[1] - smallPerTable) < Math.abs(a[1] - smallPerTable) ? b : a,
  );
  const fullest = rooms.reduce((a, b) => (b[1] > a[1] ? b : a));
  const roomTables = large.tables.filter((t) => t.salaId === alike[0]).length;
  const perTable = (n: number) => num(n, 2);
  log(
    `s18 (${target.mode}): seeded in ${((Date.now() - began) / 1000).toFixed(0)} s: 60 tables ${small.created} ` +
      `bookings (${small.refused} refused, ${perTable(smallPerTable)} per table), 500 tables ${large.created} ` +
      `(${large.refused} refused; per table by room: ${rooms.map(([, n]) => perTable(n)).join(', ')})`,
  );

  const day = (api: Api, room?: string | null) => async () =>
    (
      await api.call<{ times: unknown[] }>(
        'GET',
        `/api/disponibilita?date=${BOOKING_DAY}&covers=${COVERS}${room ? `&roomId=${room}` : ''}`,
      )
    ).times.length;
  const check = (api: Api) => async () =>
    (
      await api.call<{ availableTables: unknown[] }>('POST', '/api/tavoli/verifica-disponibilita', {
        dataOra: `${BOOKING_DAY}T20:00:00`,
        numeroPersone: COVERS,
      })
    ).availableTables.length;
  // What the day search asks capacity: pacing over the restaurant's whole day, whatever the room (prenotazione's day
  // sums, arriviGiorno, kept under the bookings' read scope: no booking is written while the probes run).
  const slots = (api: Api) => async () =>
    (await api.call<unknown[]>('GET', `/api/capacity/slots?date=${BOOKING_DAY}`)).length;
  const probes: Probe[] = [
    { label: 'verifica-disponibilita, 60 tables', call: check(small.api) },
    { label: 'the whole day, 60 tables', call: day(small.api) },
    { label: 'the whole day, a room booked alike (salaId) of 500 tables', call: day(large.api, alike[0]) },
    { label: 'the whole day, the fullest room (salaId) of 500 tables', call: day(large.api, fullest[0]) },
    { label: 'the whole day, 500 tables (no salaId)', call: day(large.api) },
    { label: "capacity's slots of the day, 60 tables", call: slots(small.api) },
    { label: "capacity's slots of the day, 500 tables", call: slots(large.api) },
  ];
  const answers = await mapLimit(probes, 1, (p) => p.call());
  for (const probe of probes) for (let i = 0; i < WARMUP; i++) await probe.call();
  const figures = await cpuPerRequest(target.processes, probes);
  const [fCheck, fDay, fRoom, fFullest, fWhole, fSlots60, fSlots500] = figures as [
    Figure,
    Figure,
    Figure,
    Figure,
    Figure,
    Figure,
    Figure,
  ];
  for (const [i, f] of figures.entries()) {
    log(
      `s18 (${target.mode}): ${probes[i]!.label}: CPU ${ms(f.cpu)} per request (rounds: ${f.each.map(ms).join(', ')}), ` +
        `wall ${ms(f.wall)}, answer ${answers[i]}`,
    );
  }

  const scenario = `18 the whole day's times for one party (${target.mode})`;
  const each = (f: Figure) => `rounds: ${f.each.map(ms).join(', ')}`;
  ctx.rows.push(
    row({
      scenario,
      what: `CPU per request: GET /api/disponibilita, whole day, party of ${COVERS}, 60 tables vs one verifica-disponibilita (goal <= 3×)`,
      ours: ms(fDay.cpu),
      baseline: `${ms(fCheck.cpu)} (verifica-disponibilita)`,
      ratio: ratio(fDay.cpu, fCheck.cpu),
      notes:
        `${answers[1]} times offered; the check lists ${answers[0]} tables at 20:00; slot by slot: ` +
        `${small.slots} checks ≈ ${ms(small.slots * fCheck.cpu)}; ${each(fDay)} / ${each(fCheck)}`,
    }),
    row({
      scenario,
      what: `CPU per request: the whole day, one ${roomTables}-table room (salaId) of 500 tables booked like the 60 vs the 60-table day (goal <= 1.2×)`,
      ours: ms(fRoom.cpu),
      baseline: `${ms(fDay.cpu)} (60 tables)`,
      ratio: ratio(fRoom.cpu, fDay.cpu),
      notes:
        `${answers[2]} times offered; ${perTable(alike[1])} bookings per table in the room, ` +
        `${perTable(smallPerTable)} at 60 tables; ${each(fRoom)}`,
    }),
    row({
      scenario,
      what: 'CPU per request: the whole day, the fullest room (salaId) of 500 tables vs the 60-table day (no goal)',
      ours: ms(fFullest.cpu),
      baseline: `${ms(fDay.cpu)} (60 tables)`,
      ratio: ratio(fFullest.cpu, fDay.cpu),
      notes: `${answers[3]} times offered; ${perTable(fullest[1])} bookings per table in the room; ${each(fFullest)}`,
    }),
    row({
      scenario,
      what: 'CPU per request: the whole day, 500 tables without salaId vs the 60-table day (no goal)',
      ours: ms(fWhole.cpu),
      baseline: `${ms(fDay.cpu)} (60 tables)`,
      ratio: ratio(fWhole.cpu, fDay.cpu),
      notes: `${answers[4]} times offered; ${each(fWhole)}`,
    }),
    row({
      scenario,
      what: "CPU per request: capacity's slots of the day (GET /api/capacity/slots, what each day search asks), 500 tables vs 60 (no goal)",
      ours: ms(fSlots500.cpu),
      baseline: `${ms(fSlots60.cpu)} (60 tables)`,
      ratio: ratio(fSlots500.cpu, fSlots60.cpu),
      notes: `pacing over the restaurant's day (prenotazione's day sums, kept while nobody books); ${each(fSlots500)} / ${each(fSlots60)}`,
    }),
  );
  ctx.method.push(
    `**18 (${target.mode}).** Two tenants seeded through the REST API: 60 tables (seats 2, 4, 4, 6, 8) in 3 rooms ` +
      `and 500 tables in 10 rooms of 50 (each room every size), pacing at every seat, each with ` +
      `${num(BOOKINGS_PER_TABLE, 2)} auto-assigned bookings per table on ${BOOKING_DAY} (parties of 2–8 spread ` +
      `over every slot capacity opens that day, POST /api/prenotazioni with autoAssign; 60 tables: ${small.created} ` +
      `made, ${small.refused} refused; 500 tables: ${large.created} made, ${large.refused} refused), re-seating on ` +
      `(the default), no shortened seatings. Auto-assignment fills the rooms in tavolo's order, so the room asked ` +
      `with salaId is the one whose bookings per table are nearest the 60-table restaurant's; the fullest room is ` +
      `measured beside it. Each probe ${WARMUP} warm-up requests, then ${ROUNDS} rounds of every probe in turn, ` +
      `${PER_ROUND} requests one after another; CPU time of the serving processes (/proc/<pid>/stat) over the ` +
      `round, less their idle rate measured ${IDLE_MS / 1000} s before the round, per request; the median round.`,
  );
}
