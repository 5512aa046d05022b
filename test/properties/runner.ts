/**
 * Runs a generated program against the real service through its REST API, recording the history, the events of
 * both tenants and the state read back at the end; `violationsOf` applies every invariant to what was recorded.
 */
import { mintToken, newTenantId } from '@coperto/testkit';
import type { CloudEvent } from '@coperto/bus';
import type { EventCollector, Stack } from '../support/stack.js';
import {
  HistoryRecorder,
  mayHaveWritten,
  now,
  type HistoryEntry,
  type Intent,
  type SeenEvent,
} from './history.js';
import {
  cancelsThatMayLeaveHolds,
  ownImportedIds,
  checkAgendaHolds,
  tablesWithUnacknowledgedClaims,
  checkAvailabilityAgrees,
  checkEventsOfWrites,
  checkLockExclusion,
  checkLocksSurvive,
  checkNoDoubleBooking,
  checkNoLostWrites,
  checkReadsNotStale,
  checkTenantIsolation,
  checkUnacknowledgedEffects,
  checkAutoAssignedFit,
  checkManualNeverMoved,
  noteOf,
  type AgendaView,
  type BookingView,
  type CombinationView,
  type SeatingBookingView,
  checkOptionsHold,
  checkWaitlistSeating,
  optionsAsBookings,
  type OptionView,
  type WaitlistEntryView,
  type WalkInView,
} from './invariants.js';
import { checkOfferedTimesBookable } from './offered-times.js';
import {
  COMBINATION_MIN_COVERS,
  SHORTENED_PRESETS,
  SLOTS,
  TABLES_PER_TENANT,
  TURN_TIME_PRESETS,
  tenantOfDevice,
  type Op,
  type Step,
} from './program.js';

/** The seats every table of a program is created with. */
const INITIAL_SEATS = 4;
/** The floor a `floorRead` asks for: table fields only, so the gateway's read cache may answer it. */
const FLOOR_QUERY = '{ tavoli { id seats } }';

export interface TenantWorld {
  tenant: string;
  token: string;
  admin: string;
  tables: string[];
  /** Bookings acknowledged so far, in the order their answers came. */
  bookings: string[];
  /** Combinations created so far (seating suite). */
  combinations: string[];
  /** Options acknowledged so far. */
  options: string[];
  /** Waitlist entries acknowledged so far. */
  waitlist: string[];
}

/** When a fault was injected and when it was healed, on the history's clock (`to` Infinity until healed). */
export interface FaultWindow {
  from: number;
  to: number;
}

/** What the program's companion (fault injection) is told of the run, and tells it back. */
export interface RunProgress {
  stepsDone(): number;
  finished(): boolean;
  /** A fault is injected now: returns what to call once it is healed. */
  faultStarted(): () => void;
}

export interface ProgramResult {
  history: HistoryEntry[];
  /** The faults injected while the program ran (the fault suite), on the history's clock. */
  faults: FaultWindow[];
  events: SeenEvent[];
  readAt: number;
  finalLocks: Map<string, { deviceId: string } | null>;
  finalStatus: Map<string, string>;
  /** Every booking read back, of both tenants (ids are tenant-scoped: judge them per tenant). */
  bookings: BookingView[];
  perTenant: Array<{ tenant: string; bookings: BookingView[]; agendas: AgendaView[] }>;
  ids: Map<string, Set<string>>;
  /** The seating suite's read-back, per tenant (absent otherwise). */
  seating?: Array<{
    tenant: string;
    bookings: SeatingBookingView[];
    seats: Map<string, number>;
    combinations: CombinationView[];
    /** Live options, read at wall time `readAtWall`. */
    options: OptionView[];
    readAtWall: number;
    waitlist: WaitlistEntryView[];
    walkIns: WalkInView[];
  }>;
}

export interface RunOptions {
  stack: Stack;
  readAgendas(tenant: string): Promise<AgendaView[]>;
  /** Runs alongside the program (fault injection); the program's devices run while it does. */
  alongside?: (progress: RunProgress) => Promise<void>;
  /** How long to wait for the events of acknowledged writes before judging (ms). */
  eventWaitMs?: number;
  /** Where the events are watched (default: the stack's live subscription). */
  observe?: (subject: string) => Promise<EventCollector>;
  /** Whether the events can be observed at all (not for an embedded child process). Default true. */
  eventsObservable?: boolean;
  /** The seating suite: tables in a room (combinations need one), bookings read back with the seating fields. */
  seating?: boolean;
}

async function makeWorld(stack: Stack, seating = false): Promise<TenantWorld> {
  const tenant = newTenantId();
  const token = await mintToken({ tenantId: tenant });
  const admin = await mintToken({ tenantId: tenant, admin: true });
  let salaId: string | undefined;
  if (seating) {
    const room = await stack.api('POST', '/api/sale', {
      token: admin,
      body: { codice: 'P1', descrizione: 'Sala' },
    });
    if (room.status !== 201)
      throw new Error(`setup: room not created (${room.status} ${JSON.stringify(room.body)})`);
    salaId = room.body.id;
  }
  const tables: string[] = [];
  for (let i = 0; i < TABLES_PER_TENANT; i++) {
    const res = await stack.api('POST', '/api/tavoli', {
      token,
      body: { name: `T${i}`, seats: INITIAL_SEATS, ...(salaId ? { salaId } : {}) },
    });
    if (res.status !== 201)
      throw new Error(`setup: table not created (${res.status} ${JSON.stringify(res.body)})`);
    tables.push(res.body.id);
  }
  return { tenant, token, admin, tables, bookings: [], combinations: [], options: [], waitlist: [] };
}

const pick = <T>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

/** Sends one operation of a device, recording it (and, for checkThenBook, the booking attempt that follows). */
async function runOp(rec: HistoryRecorder, stack: Stack, world: TenantWorld, deviceId: string, op: Op) {
  const send = (intent: Intent, method: string, path: string, body?: unknown, token = world.token) =>
    rec.record({ tenant: world.tenant, device: deviceId, intent, method, path, body }, () =>
      stack.api(method, path, { token, body }),
    );
  const t = (i: number) => world.tables[i]!;
  const booked = (entry: HistoryEntry) => {
    if (entry.status === 201) world.bookings.push(entry.response.id);
    return entry;
  };
  switch (op.kind) {
    case 'pause':
      await new Promise((r) => setTimeout(r, op.ms));
      return;
    case 'lock':
      await send(
        { kind: 'lock', tableId: t(op.table), deviceId, ttl: op.ttl },
        'POST',
        `/api/tavoli/${t(op.table)}/lock`,
        {
          deviceId,
          operatorName: deviceId,
          ttl: op.ttl,
        },
      );
      return;
    case 'unlock':
      await send(
        { kind: 'unlock', tableId: t(op.table), deviceId },
        'POST',
        `/api/tavoli/${t(op.table)}/unlock`,
        {
          deviceId,
        },
      );
      return;
    case 'forceUnlock':
      await send(
        { kind: 'forceUnlock', tableId: t(op.table) },
        'DELETE',
        `/api/tavoli/${t(op.table)}/lock`,
        undefined,
        world.admin,
      );
      return;
    case 'status':
      await send(
        { kind: 'status', tableId: t(op.table), status: op.status, ...(op.withDevice ? { deviceId } : {}) },
        'PUT',
        `/api/tavoli/${t(op.table)}/status`,
        { status: op.status, ...(op.withDevice ? { deviceId } : {}) },
      );
      return;
    case 'patchTable':
      await send(
        { kind: 'patchTable', tableId: t(op.table), seats: op.seats, ...(op.withDevice ? { deviceId } : {}) },
        'PATCH',
        `/api/tavoli/${t(op.table)}`,
        { seats: op.seats, ...(op.withDevice ? { deviceId } : {}) },
      );
      return;
    case 'deleteTable':
      await send({ kind: 'deleteTable', tableId: t(op.table) }, 'DELETE', `/api/tavoli/${t(op.table)}`);
      return;
    case 'floorRead':
      await send({ kind: 'floorRead' }, 'POST', '/graphql', { query: FLOOR_QUERY });
      return;
    case 'createBooking': {
      const tableIds = op.tables.map(t);
      const start = SLOTS[op.slot]!;
      const body = {
        covers: 2,
        bookingDate: start,
        customerName: deviceId,
        tableIds,
        notes: noteOf(rec.entries.length),
        ...(op.duration !== null ? { durationMinutes: op.duration } : {}),
      };
      booked(
        await send(
          { kind: 'createBooking', tableIds, start, minutes: op.duration ?? 120 },
          'POST',
          '/api/prenotazioni',
          body,
        ),
      );
      return;
    }
    case 'moveBooking': {
      const bookingId = pick(world.bookings, op.booking);
      if (!bookingId) return;
      const tableIds = op.tables?.map(t);
      const start = op.slot === null ? undefined : SLOTS[op.slot];
      const body =
        tableIds === undefined && start === undefined
          ? { notes: 'spostata' }
          : { ...(tableIds ? { tableIds } : {}), ...(start ? { bookingDate: start } : {}) };
      await send(
        { kind: 'moveBooking', bookingId, ...(tableIds ? { tableIds } : {}), ...(start ? { start } : {}) },
        'PATCH',
        `/api/prenotazioni/${bookingId}`,
        body,
      );
      return;
    }
    case 'confirm':
    case 'cancel': {
      const bookingId = pick(world.bookings, op.booking);
      if (!bookingId) return;
      const action = op.kind === 'confirm' ? 'conferma' : 'annulla';
      await send(
        { kind: op.kind, bookingId },
        'POST',
        `/api/prenotazioni/${bookingId}/${action}`,
        op.kind === 'cancel' ? { motivo: 'generated' } : undefined,
      );
      return;
    }
    case 'batch': {
      const items = op.items.map((item) => ({
        externalId: `ext-${item.externalId}`,
        tableIds: item.tables.map(t),
        start: SLOTS[item.slot]!,
        minutes: 120,
      }));
      const entry = await send({ kind: 'batch', items }, 'POST', '/api/prenotazioni/batch', {
        items: items.map((item) => ({
          externalId: item.externalId,
          covers: 2,
          bookingDate: item.start,
          customerName: deviceId,
          tableIds: item.tableIds,
        })),
      });
      for (const result of entry.response?.results ?? []) {
        if (result.status === 'created' && !world.bookings.includes(result.id))
          world.bookings.push(result.id);
      }
      return;
    }
    case 'createCombination': {
      const tableIds = op.tables.map(t);
      const entry = await send(
        { kind: 'createCombination', tableIds, minCovers: COMBINATION_MIN_COVERS, maxCovers: op.maxCovers },
        'POST',
        '/api/combinazioni',
        {
          name: `C${rec.entries.length}`,
          tableIds,
          minCovers: COMBINATION_MIN_COVERS,
          maxCovers: op.maxCovers,
        },
        world.admin,
      );
      if (entry.status === 201) world.combinations.push(entry.response.id);
      return;
    }
    case 'autoBook': {
      const start = SLOTS[op.slot]!;
      booked(
        await send(
          { kind: 'autoBook', start, covers: op.covers, minutes: op.duration },
          'POST',
          '/api/prenotazioni',
          {
            covers: op.covers,
            bookingDate: start,
            customerName: deviceId,
            autoAssign: true,
            notes: noteOf(rec.entries.length),
            ...(op.duration !== null ? { durationMinutes: op.duration } : {}),
          },
        ),
      );
      return;
    }
    case 'bookCombination': {
      const combinationId = pick(world.combinations, op.combination);
      if (!combinationId) return;
      const start = SLOTS[op.slot]!;
      booked(
        await send(
          { kind: 'bookCombination', combinationId, start, covers: op.covers },
          'POST',
          '/api/prenotazioni',
          {
            covers: op.covers,
            bookingDate: start,
            customerName: deviceId,
            combinationId,
            notes: noteOf(rec.entries.length),
          },
        ),
      );
      return;
    }
    case 'setSeating': {
      const turnTimes = TURN_TIME_PRESETS[op.preset]!.map((row) => ({ ...row }));
      const shortenedMinMinutes = SHORTENED_PRESETS[op.preset % SHORTENED_PRESETS.length] ?? null;
      await send(
        { kind: 'setSeating', reseat: op.reseat, turnTimes, shortenedMinMinutes },
        'PUT',
        '/api/capacity/config',
        { reseat: op.reseat, turnTimes, shortenedMinMinutes },
        world.admin,
      );
      return;
    }
    case 'searchThenBook': {
      const start = SLOTS[op.slot]!;
      const [date, time] = start.split('T') as [string, string];
      for (let round = 0; round < op.repeat; round++) {
        const search = await send(
          { kind: 'search', start, covers: op.covers },
          'GET',
          `/api/disponibilita?data=${date}&coperti=${op.covers}&ora=${time}&limite=1`,
        );
        const offered: { bookingDate: string; durationMinutes: number; shortened: boolean } | undefined =
          search.status === 200 ? search.response?.times?.[0] : undefined;
        if (!offered) return;
        booked(
          await send(
            {
              kind: 'autoBook',
              start: offered.bookingDate,
              covers: op.covers,
              minutes: offered.shortened ? offered.durationMinutes : null,
              searchId: search.id,
            },
            'POST',
            '/api/prenotazioni',
            {
              covers: op.covers,
              bookingDate: offered.bookingDate,
              customerName: deviceId,
              autoAssign: true,
              notes: noteOf(rec.entries.length),
              ...(offered.shortened ? { durationMinutes: offered.durationMinutes } : {}),
            },
          ),
        );
      }
      return;
    }
    case 'createOption': {
      const start = SLOTS[op.slot]!;
      const tableIds = op.tables?.map(t);
      const entry = await send(
        { kind: 'createOption', ...(tableIds ? { tableIds } : {}), start, covers: op.covers, ttl: op.ttl },
        'POST',
        '/api/prenotazioni/opzioni',
        {
          covers: op.covers,
          bookingDate: start,
          ttl: op.ttl,
          ...(tableIds ? { tableIds } : { autoAssign: true }),
        },
      );
      if (entry.status === 201) world.options.push(entry.response.id);
      return;
    }
    case 'convertOption': {
      const optionId = pick(world.options, op.option);
      if (!optionId) return;
      booked(
        await send({ kind: 'convertOption', optionId }, 'POST', '/api/prenotazioni', {
          opzioneId: optionId,
          customerName: deviceId,
          notes: noteOf(rec.entries.length),
        }),
      );
      return;
    }
    case 'releaseOption': {
      const optionId = pick(world.options, op.option);
      if (!optionId) return;
      await send({ kind: 'releaseOption', optionId }, 'DELETE', `/api/prenotazioni/opzioni/${optionId}`);
      return;
    }
    case 'waitAdd': {
      const entry = await send({ kind: 'waitAdd', covers: op.covers }, 'POST', '/api/attesa', {
        customerName: deviceId,
        covers: op.covers,
      });
      if (entry.status === 201) world.waitlist.push(entry.response.id);
      return;
    }
    case 'waitNotify':
    case 'waitSeat':
    case 'waitCancel': {
      const entryId = pick(world.waitlist, op.entry);
      if (!entryId) return;
      if (op.kind === 'waitNotify') {
        await send({ kind: 'waitNotify', entryId }, 'POST', `/api/attesa/${entryId}/avvisa`);
      } else if (op.kind === 'waitCancel') {
        const state = op.left ? 'left' : 'cancelled';
        await send({ kind: 'waitCancel', entryId, state }, 'POST', `/api/attesa/${entryId}/annulla`, {
          motivo: 'generated',
          state,
        });
      } else {
        const tableIds = op.tables?.map(t);
        await send(
          { kind: 'waitSeat', entryId, ...(tableIds ? { tableIds } : {}) },
          'POST',
          `/api/attesa/${entryId}/siedi`,
          tableIds ? { tableIds } : {},
        );
      }
      return;
    }
    case 'checkThenBookCombination': {
      const start = SLOTS[op.slot]!;
      const check = await send(
        { kind: 'check', start, minutes: op.duration, covers: op.covers },
        'POST',
        '/api/tavoli/verifica-disponibilita',
        { dataOra: start, numeroPersone: op.covers, durataMediaPasto: op.duration },
      );
      const offered: Array<{ id: string; tableIds: string[] }> =
        check.status === 200 ? (check.response?.combinazioniDisponibili ?? []) : [];
      const chosen = offered[0];
      if (!chosen) return;
      booked(
        await send(
          {
            kind: 'bookAfterCheck',
            checkId: check.id,
            tableIds: chosen.tableIds,
            start,
            minutes: op.duration,
          },
          'POST',
          '/api/prenotazioni',
          {
            covers: op.covers,
            bookingDate: start,
            customerName: deviceId,
            combinationId: chosen.id,
            durationMinutes: op.duration,
            notes: noteOf(rec.entries.length),
          },
        ),
      );
      return;
    }
    case 'checkThenBook': {
      const start = SLOTS[op.slot]!;
      const check = await send(
        { kind: 'check', start, minutes: op.duration, covers: op.covers },
        'POST',
        '/api/tavoli/verifica-disponibilita',
        {
          dataOra: start,
          numeroPersone: op.covers,
          durataMediaPasto: op.duration,
        },
      );
      const free: Array<{ id: string }> =
        check.status === 200 ? (check.response?.tavoliDisponibili ?? []) : [];
      const chosen = free[0];
      if (!chosen) return;
      booked(
        await send(
          { kind: 'bookAfterCheck', checkId: check.id, tableIds: [chosen.id], start, minutes: op.duration },
          'POST',
          '/api/prenotazioni',
          {
            covers: op.covers,
            bookingDate: start,
            customerName: deviceId,
            tableIds: [chosen.id],
            durationMinutes: op.duration,
          },
        ),
      );
      return;
    }
  }
}

const seen = (event: CloudEvent, busSubject: string): SeenEvent => ({
  id: event.id,
  type: event.type,
  subject: event.subject ?? '',
  tenantid: event.tenantid,
  data: event.data,
  busSubject,
});

/**
 * The processes' log lines about a failed answer: those naming its request id and, since a subgraph logs under
 * its own id, the last 20 error lines and the last 20 warnings (a store or bus a process cannot reach is a
 * warning), and the last 10 lines that are not log entries (what a process printed as it crashed). Empty when the
 * stack's processes are not children.
 */
export function logsOfFailure(stack: Stack, body: unknown): string {
  if (!stack.logLines) return '';
  const requestId = (body as { error?: { requestId?: unknown } } | null)?.error?.requestId;
  const lines = [
    ...(typeof requestId === 'string' ? stack.logLines(requestId) : []),
    ...stack.logLines('"level":"error"').slice(-20),
    ...stack.logLines('"level":"warn"').slice(-20),
    ...stack
      .logLines('')
      .filter((line) => !/^[^:]+: (\{|$)/.test(line))
      .slice(-10),
  ];
  return lines.length === 0 ? '' : `\nprocess logs:\n${[...new Set(lines)].join('\n')}`;
}

/** A read at the end: after a fault the service may need a moment to reconnect (bounded). */
async function readUntilOk(stack: Stack, path: string, token: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await stack.api('GET', path, { token }).catch((error: Error) => ({
      status: 0,
      body: String(error.message),
      headers: new Headers(),
    }));
    if (res.status === 200 || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Starts the test's own event observer (a JetStream ordered consumer in distributed mode), retried: before the
 * program starts, nothing is injected yet, but on a loaded machine the consumer's creation can time out
 * (nats.js `TIMEOUT`; seen once in a 40-minute torture run at load 20, not reproduced on replay). That is the
 * observer failing, not the service, so it gets three tries.
 */
async function observeWithRetry(
  observe: (subject: string) => Promise<EventCollector>,
  subject: string,
): Promise<EventCollector> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await observe(subject);
    } catch (error) {
      if (attempt >= 3 || !/TIMEOUT/i.test(String((error as Error)?.message ?? error))) throw error;
    }
  }
}

const SEATING_READ = `{
  prenotazioni(filter: { dal: "2031-03-01", al: "2031-03-31" }) {
    id state tableIds startsAt endsAt durationMinutes notes covers combinationId assignment
  }
  tavoli { id seats }
  combinazioni { id tableIds minCovers maxCovers }
  opzioni { id tableIds startsAt endsAt expiresAt covers combinationId assignment }
}`;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The seating suite's read-back of one tenant: bookings with their seating fields, seats, combinations, live
 * options (read at `readAtWall`), the waitlist entries the program made (reading one finishes a seating a crash
 * interrupted) and the walk-in bookings of today.
 */
async function readSeating(stack: Stack, world: TenantWorld) {
  const entries = world.waitlist
    .map((id, i) => `e${i}: voceAttesa(id: ${JSON.stringify(id)}) { id state prenotazioneId tableIds }`)
    .join('\n');
  const day = Date.now();
  const walkIns = `walkIns: prenotazioni(filter: { dal: "${isoDay(day - 86_400_000)}", al: "${isoDay(day + 86_400_000)}" }) {
    id state tableIds startsAt endsAt durationMinutes notes covers combinationId assignment externalId
  }`;
  // After a fault the service may need a moment to reconnect (bounded), as for the other reads.
  const deadline = Date.now() + 30_000;
  let readAtWall: number;
  let res: Awaited<ReturnType<Stack['graphql']>>;
  for (;;) {
    readAtWall = Date.now();
    res = await stack
      .graphql(world.token, SEATING_READ.replace(/}$/, `${walkIns}\n${entries}\n}`))
      .catch((error: Error) => ({ status: 0, body: { errors: [String(error.message)] } }) as never);
    if ((res.status === 200 && !res.body.errors) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (res.status !== 200 || res.body.errors)
    throw new Error(`final seating read: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  const data = res.body.data as {
    prenotazioni: SeatingBookingView[];
    tavoli: Array<{ id: string; seats: number }>;
    combinazioni: CombinationView[];
    opzioni: OptionView[];
    walkIns: Array<SeatingBookingView & WalkInView>;
  } & Record<string, WaitlistEntryView | null>;
  const waitlist = world.waitlist.map((_, i) => data[`e${i}`] as WaitlistEntryView | null);
  return {
    bookings: data.prenotazioni,
    seats: new Map(data.tavoli.map((t) => [t.id, t.seats])),
    combinations: data.combinazioni,
    options: data.opzioni,
    readAtWall,
    waitlist: waitlist.filter((e): e is WaitlistEntryView => e !== null),
    walkIns: data.walkIns,
  };
}

/** Runs one program on two fresh tenants and returns everything the invariants look at. */
export async function runProgram(program: readonly Step[], options: RunOptions): Promise<ProgramResult> {
  const { stack } = options;
  const worlds = [await makeWorld(stack, options.seating), await makeWorld(stack, options.seating)] as const;
  const observe = options.observe ?? (async (subject: string) => stack.events(subject));
  const collectors: Array<[string, EventCollector]> = await Promise.all(
    worlds.map(async (w) => {
      const subject = `tenant.${w.tenant}.restaurant.>`;
      return [subject, await observeWithRetry(observe, subject)] as [string, EventCollector];
    }),
  );
  const rec = new HistoryRecorder();
  try {
    const devices = [...new Set(program.map((s) => s.device))];
    let done = 0;
    let finished = false;
    const faults: FaultWindow[] = [];
    const faultStarted = () => {
      const window: FaultWindow = { from: now(), to: Number.POSITIVE_INFINITY };
      faults.push(window);
      return () => {
        window.to = now();
      };
    };
    const runDevices = Promise.all(
      devices.map(async (device) => {
        const world = worlds[tenantOfDevice(device)];
        for (const step of program.filter((s) => s.device === device)) {
          await runOp(rec, stack, world, `dev-${device}`, step.op);
          done++;
        }
      }),
    );
    await Promise.all([
      runDevices.finally(() => (finished = true)),
      options.alongside?.({ stepsDone: () => done, finished: () => finished, faultStarted }),
    ]);

    // Events of acknowledged writes may still be on their way (outbox relay): wait for them, bounded.
    const events = () =>
      collectors.flatMap(([subject, c]) =>
        c.received.map((e) => seen(e, subject.replace('.>', `.${e.type}`))),
      );
    const deadline = Date.now() + (options.eventWaitMs ?? 10_000);
    while (
      Date.now() < deadline &&
      checkEventsOfWrites(rec.entries, events()).some((v) => v.includes('has no'))
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }

    const readAt = now();
    const finalLocks = new Map<string, { deviceId: string } | null>();
    const finalStatus = new Map<string, string>();
    const perTenant: ProgramResult['perTenant'] = [];
    const seating: NonNullable<ProgramResult['seating']> = [];
    for (const world of worlds) {
      const tables = await readUntilOk(stack, '/api/tavoli', world.token);
      if (tables.status !== 200)
        throw new Error(
          `final read of tables: ${tables.status} ${JSON.stringify(tables.body)}${logsOfFailure(stack, tables.body)}`,
        );
      for (const table of tables.body) {
        finalLocks.set(table.id, table.lock ?? null);
        finalStatus.set(table.id, table.status);
      }
      const list = await stack.api('GET', '/api/prenotazioni?dal=2031-03-01&al=2031-03-31', {
        token: world.token,
      });
      if (list.status !== 200)
        throw new Error(
          `final read of bookings: ${list.status} ${JSON.stringify(list.body)}${logsOfFailure(stack, list.body)}`,
        );
      const seated = options.seating ? await readSeating(stack, world) : undefined;
      if (seated) seating.push({ tenant: world.tenant, ...seated });
      perTenant.push({
        tenant: world.tenant,
        // The seating suite judges windows by the stored endsAt (turn times), which only GraphQL carries; the
        // walk-ins of today (waitlist seatings) hold tables too.
        bookings: seated
          ? [...seated.bookings, ...seated.walkIns.filter((w) => !seated.bookings.some((b) => b.id === w.id))]
          : list.body,
        agendas: await options.readAgendas(world.tenant),
      });
    }
    // A create answered 5xx may still have written its booking: it was inserted with the write-time lease of the
    // relay of a process that saw the write fail, so its event leaves once that lease runs out (10 s), after the
    // acknowledged ones the wait above covered. Wait for those too, as long again at most.
    const bookingsRead = perTenant.flatMap((t) => t.bookings);
    const unacknowledgedUntil = Date.now() + (options.eventWaitMs ?? 10_000);
    while (
      Date.now() < unacknowledgedUntil &&
      checkUnacknowledgedEffects(rec.entries, events(), bookingsRead).length > 0
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const ids = new Map(
      worlds.map(
        (w) =>
          [
            w.tenant,
            new Set([
              w.tenant,
              ...w.tables,
              ...w.bookings,
              ...w.combinations,
              ...w.options,
              ...w.waitlist,
              ...ownImportedIds(
                rec.entries.filter((e) => e.tenant === w.tenant),
                perTenant.find((t) => t.tenant === w.tenant)?.bookings ?? [],
              ),
            ]),
          ] as const,
      ),
    );
    return {
      history: rec.entries,
      faults,
      events: events(),
      readAt,
      finalLocks,
      finalStatus,
      bookings: bookingsRead,
      perTenant,
      ids,
      ...(options.seating ? { seating } : {}),
    };
  } finally {
    for (const [, c] of collectors) c.stop();
  }
}

/** Every invariant over one program's result, as named violations. */
export function violationsOf(
  result: ProgramResult,
  options: { faults?: boolean; events?: boolean; ignore?: readonly string[] } = {},
): string[] {
  const ignore = [...(options.ignore ?? ignoredInvariants())];
  if (options.events === false) ignore.push('events of writes', 'unacknowledged effects');
  const named = (name: string, violations: string[]) =>
    ignore.includes(name) ? [] : violations.map((v) => `${name}: ${v}`);
  const perTenant = result.perTenant.flatMap(({ tenant, bookings, agendas }) => {
    const history = result.history.filter((e) => e.tenant === tenant);
    const events = result.events.filter((e) => e.tenantid === tenant);
    const seated = result.seating?.find((s) => s.tenant === tenant);
    const live = seated?.options ?? [];
    const expired = new Set(
      history
        .filter((e) => e.intent.kind === 'createOption' && e.status === 201)
        .filter((e) => Date.parse(e.response.expiresAt) <= (seated?.readAtWall ?? Date.now()))
        .map((e) => e.response.id as string),
    );
    return [
      ...named('events of writes', checkEventsOfWrites(history, events)),
      // A live option holds its tables for its window like a booking.
      ...named('no double booking', checkNoDoubleBooking([...bookings, ...optionsAsBookings(live)])),
      ...named(
        'agenda holds',
        checkAgendaHolds(
          agendas,
          bookings,
          options.faults
            ? tablesWithUnacknowledgedClaims(
                history,
                agendas.map((a) => a.tableId),
              )
            : undefined,
          { live, expired },
          options.faults ? cancelsThatMayLeaveHolds(history, result.faults) : undefined,
        ),
      ),
      ...named('no lost writes', checkNoLostWrites(history, result.finalStatus, bookings)),
      ...(options.faults ? [] : named('reads not stale', checkReadsNotStale(history, INITIAL_SEATS))),
      ...(options.faults
        ? named('unacknowledged effects', checkUnacknowledgedEffects(history, events, bookings))
        : []),
    ];
  });
  const seating = (result.seating ?? []).flatMap((s) => {
    const history = result.history.filter((e) => e.tenant === s.tenant);
    return [
      // The fault suite's programs also change seats and delete tables: the fit is judged where they did not.
      ...(history.some((e) => ['patchTable', 'deleteTable'].includes(e.intent.kind) && mayHaveWritten(e))
        ? []
        : named('auto-assigned tables fit', checkAutoAssignedFit(s.bookings, s.seats, s.combinations))),
      ...named('manual never moved', checkManualNeverMoved(history, s.bookings)),
      ...named('options hold', checkOptionsHold(history, s.options, s.bookings, s.readAtWall)),
      ...named(
        'waitlist seats once',
        checkWaitlistSeating(history, s.waitlist, s.walkIns, options.faults ?? false),
      ),
    ];
  });
  return [
    ...seating,
    ...named('one lock holder', checkLockExclusion(result.history)),
    ...named('locks survive', checkLocksSurvive(result.history, result.finalLocks, result.readAt)),
    ...named('check agrees with booking', checkAvailabilityAgrees(result.history)),
    ...named('offered times can be booked', checkOfferedTimesBookable(result.history)),
    ...named('tenant isolation', checkTenantIsolation(result.history, result.events, result.ids)),
    ...perTenant,
  ];
}

/** Invariants left out while triaging (`PROPS_IGNORE="agenda holds,locks survive"`); never set in CI. */
export function ignoredInvariants(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.PROPS_IGNORE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
