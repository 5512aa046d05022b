import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '@coperto/auth';
import { createMemoryCache } from '@coperto/cache';
import { InputChecks } from '@coperto/domain';
import { hostSubgraphsInProcess, type InProcessSubgraphs } from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { availableCombinations } from '../src/availability/availability.js';
import type { CombinazioneRecord } from '../src/combinations/combinazione-record.js';
import {
  checkCombinazioneInput,
  checkCombinazioneTables,
  mergeCombinazioneAliases,
  type CombinazioneDraft,
} from '../src/combinations/combinazione-rules.js';
import { createTavoloSubgraph } from '../src/subgraph.js';
import type { TavoloRecord } from '../src/tables/tavolo-record.js';
import { testDocument } from './test-document.js';

const table = (id: string, capacita: number, extra: Partial<TavoloRecord> = {}): TavoloRecord => ({
  id,
  nome: id,
  capacita,
  stato: 'free',
  salaId: 'room-a',
  attivo: true,
  posizione: null,
  orderId: null,
  pax: null,
  totalAmount: null,
  lock: null,
  version: 1,
  createdAt: '2027-01-01T00:00:00Z',
  updatedAt: '2027-01-01T00:00:00Z',
  ...extra,
});

const tableIssues = (draft: Partial<CombinazioneDraft>, tables: TavoloRecord[]) => {
  const checks = new InputChecks();
  checkCombinazioneTables(
    { tableIds: ['a', 'b'], capacitaMin: 1, capacitaMax: 6, attivo: true, ...draft },
    tables,
    checks,
  );
  return checks.issues;
};

describe('combination rules', () => {
  const fourTops = [table('a', 4), table('b', 4)];

  it('keeps maxCovers within the seats of the tables together, and minCovers <= maxCovers', () => {
    // maxCovers is the restaurant's figure (two 4-tops joined typically seat 6 or 7), never more than 8.
    expect(tableIssues({ capacitaMax: 7 }, fourTops)).toEqual([]);
    expect(tableIssues({ capacitaMax: 8 }, fourTops)).toEqual([]);
    expect(tableIssues({ capacitaMax: 9 }, fourTops)).toEqual([
      { field: 'maxCovers', message: "must be at most the tables' seats together (8)" },
    ]);
    expect(tableIssues({ capacitaMin: 7, capacitaMax: 6 }, fourTops).map((i) => i.field)).toEqual([
      'minCovers',
    ]);
  });

  it('needs existing, active tables of one room', () => {
    expect(tableIssues({ tableIds: ['a', 'zz'] }, fourTops)[0]?.message).toBe('unknown table(s): zz');
    expect(tableIssues({}, [table('a', 4), table('b', 4, { salaId: 'room-b' })])[0]?.message).toBe(
      'all tables must be in one room',
    );
    expect(tableIssues({}, [table('a', 4), table('b', 4, { salaId: null })])[0]?.message).toBe(
      'every table must be in a room',
    );
    expect(tableIssues({}, [table('a', 4), table('b', 4, { attivo: false })])[0]?.message).toBe(
      'inactive table(s): b',
    );
    // An inactive combination may keep an inactive table (it is never offered).
    expect(tableIssues({ attivo: false }, [table('a', 4), table('b', 4, { attivo: false })])).toEqual([]);
    expect(tableIssues({ tableIds: ['a'] }, fourTops).map((i) => i.field)).toContain('tableIds');
  });

  it('checks the input alone: 2..8 distinct tables, names and covers, required fields on create', () => {
    const fields = (input: Parameters<typeof mergeCombinazioneAliases>[0], create = true) =>
      checkCombinazioneInput(mergeCombinazioneAliases(input), { create }).issues.map((i) => i.field);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(fields({ name: 'A', tableIds: ids(2), maxCovers: 4 })).toEqual([]);
    expect(fields({ nome: 'A', tableIds: ids(8), capacitaMax: 4 })).toEqual([]);
    expect(fields({ name: 'A', tableIds: ids(9), maxCovers: 4 })).toEqual(['tableIds']);
    expect(fields({ name: 'A', tableIds: ['x', 'x'], maxCovers: 4 })).toEqual(['tableIds']);
    expect(fields({})).toEqual(['name', 'tableIds', 'maxCovers']);
    expect(fields({}, false)).toEqual([]);
    expect(fields({ name: ' ', tableIds: ids(2), maxCovers: 0, minCovers: 0 })).toEqual([
      'name',
      'minCovers',
      'maxCovers',
    ]);
    expect(fields({ name: null }, false)).toEqual(['name']);
  });

  it('prefers the English names when both are sent', () => {
    expect(
      mergeCombinazioneAliases({ nome: 'Italiano', name: 'English', capacitaMax: 5, maxCovers: 6 }),
    ).toMatchObject({ nome: 'English', capacitaMax: 6 });
  });
});

describe('availableCombinations', () => {
  const combination = (id: string, tableIds: string[], min: number, max: number): CombinazioneRecord => ({
    id,
    nome: id,
    tableIds,
    salaId: 'room-a',
    capacitaMin: min,
    capacitaMax: max,
    attivo: true,
    version: 1,
    createdAt: '',
    updatedAt: '',
  });
  const at = (hhmm: string) => new Date(`2027-03-01T${hhmm}:00Z`);
  const window = { start: at('19:00'), end: at('21:00'), partySize: 6 };
  const tables = [
    table('a', 4),
    table('b', 4),
    table('c', 4),
    table('d', 4, { attivo: false }),
    table('moved', 4, { salaId: 'room-b' }),
  ];

  it('offers a combination only when every table is free, active and present and the range holds the party', () => {
    const combos = [
      combination('ab', ['a', 'b'], 5, 7),
      combination('bc', ['b', 'c'], 5, 7),
      combination('small', ['a', 'c'], 1, 5),
      combination('big-min', ['a', 'c'], 7, 8),
      combination('inactive-table', ['a', 'd'], 1, 7),
      combination('deleted-table', ['a', 'gone'], 1, 7),
      combination('moved-table', ['a', 'moved'], 1, 7),
    ];
    const bookings = [{ tableId: 'c', start: at('20:30'), end: at('22:30') }];
    expect(availableCombinations(combos, tables, window, bookings).map((c) => c.id)).toEqual(['ab']);
    // A hold touching the window's end does not overlap.
    const touching = [{ tableId: 'c', start: at('21:00'), end: at('23:00') }];
    expect(availableCombinations(combos, tables, window, touching).map((c) => c.id)).toEqual(['ab', 'bc']);
    expect(
      availableCombinations([{ ...combos[0]!, attivo: false }], tables, window, []).map((c) => c.id),
    ).toEqual([]);
  });
});

interface Combination {
  id: string;
  name: string;
  nome: string;
  tableIds: string[];
  roomId: string;
  minCovers: number;
  maxCovers: number;
  attivo: boolean;
  tavoli: Array<{ id: string }>;
}

const COMBINATION = 'id name nome tableIds roomId minCovers maxCovers attivo tavoli { id }';

describe('combinations through the tavolo subgraph (embedded store)', () => {
  let dir: string;
  let store: DocumentStore;
  let hosted: InProcessSubgraphs;
  let admin: string;
  let waiter: string;
  let room: string;

  const gql = <T>(subgraph: string, query: string, variables: Record<string, unknown>, token = admin) =>
    hosted.client.request(subgraph, testDocument<T>(query), variables, token);
  const newRoom = async () => {
    const { createSala } = await gql<{ createSala: { id: string } }>(
      'sala',
      'mutation($i: SalaInput!) { createSala(input: $i) { id } }',
      { i: { codice: `SALA-${Math.random().toString(36).slice(2, 8)}`, width: 1000, height: 600 } },
    );
    room = createSala.id;
  };
  const createTable = async (seats: number, salaId: string | null = room) =>
    (
      await gql<{ createTavolo: { id: string } }>(
        'tavolo',
        'mutation($i: TavoloInput!) { createTavolo(input: $i) { id } }',
        { i: { name: `T${seats}`, seats, roomId: salaId } },
      )
    ).createTavolo.id;
  const createCombination = async (input: Record<string, unknown>, token = admin) =>
    (
      await gql<{ createCombinazione: Combination }>(
        'tavolo',
        `mutation($i: CombinazioneInput!) { createCombinazione(input: $i) { ${COMBINATION} } }`,
        { i: input },
        token,
      )
    ).createCombinazione;
  const readCombination = async (id: string, token = admin) =>
    (
      await gql<{ combinazione: Combination | null }>(
        'tavolo',
        `query($id: ID!) { combinazione(id: $id) { ${COMBINATION} } }`,
        { id },
        token,
      )
    ).combinazione;
  const check = async (input: Record<string, unknown>) =>
    (
      await gql<{
        verificaDisponibilita: {
          availableTables: Array<{ id: string }>;
          availableCombinations: Array<{ id: string }>;
          combinazioniDisponibili: Array<{ id: string }>;
        };
      }>(
        'tavolo',
        `query($i: DisponibilitaInput!) { verificaDisponibilita(input: $i) {
          availableTables { id } availableCombinations { id } combinazioniDisponibili { id } } }`,
        { i: { salaId: room, ...input } },
      )
    ).verificaDisponibilita;
  const book = (tableIds: string[], dataOra: string, covers: number, durationMinutes?: number) =>
    gql('prenotazione', 'mutation($i: PrenotazioneInput!) { createPrenotazione(input: $i) { id } }', {
      i: { customerName: 'Rossi', covers, dataOra, tableIds, durationMinutes },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tavolo-combinazioni-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
    hosted = await hostSubgraphsInProcess({
      factories: {
        tavolo: createTavoloSubgraph,
        sala: createSalaSubgraph,
        prenotazione: createPrenotazioneSubgraph,
        capacity: createCapacitySubgraph,
      },
      deps: {
        store,
        cache: createMemoryCache(),
        verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
        timeZone: 'Europe/Rome',
        onEventsWritten: () => {},
      },
    });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    const tenantId = newTenantId();
    admin = `Bearer ${await mintToken({ tenantId, admin: true })}`;
    waiter = `Bearer ${await mintToken({ tenantId })}`;
    await newRoom();
  });

  it('creates a combination with its defaults, English names winning; any staff member reads it', async () => {
    const [a, b] = [await createTable(4), await createTable(4)];
    const created = await createCombination({
      nome: 'Italiano',
      name: 'A+B',
      tableIds: [a, b],
      maxCovers: 7,
    });
    expect(created).toMatchObject({
      name: 'A+B',
      nome: 'A+B',
      tableIds: [a, b],
      roomId: room,
      minCovers: 1,
      maxCovers: 7,
      attivo: true,
      tavoli: [{ id: a }, { id: b }],
    });
    expect(await readCombination(created.id, waiter)).toMatchObject({ id: created.id });
  });

  it('refuses writes of a waiter, and hides other tenants’ combinations', async () => {
    const [a, b] = [await createTable(2), await createTable(2)];
    await expect(
      createCombination({ name: 'x', tableIds: [a, b], maxCovers: 4 }, waiter),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const created = await createCombination({ name: 'mine', tableIds: [a, b], maxCovers: 4 });
    const other = `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}`;
    expect(await readCombination(created.id, other)).toBeNull();
    await expect(
      gql('tavolo', 'mutation($id: ID!) { deleteCombinazione(id: $id) { id } }', { id: created.id }, other),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Another tenant's tables are unknown tables here.
    await expect(
      createCombination({ name: 'theirs', tableIds: [a, b], maxCovers: 4 }, other),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('checks a change whole: maxCovers above the seats of the tables is refused', async () => {
    const [a, b] = [await createTable(4), await createTable(4)];
    const created = await createCombination({ name: 'AB', tableIds: [a, b], maxCovers: 6 });
    await expect(
      gql(
        'tavolo',
        'mutation($id: ID!, $i: CombinazioneInput!) { updateCombinazione(id: $id, input: $i) { id } }',
        {
          id: created.id,
          i: { maxCovers: 9 },
        },
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const { updateCombinazione } = await gql<{ updateCombinazione: Combination }>(
      'tavolo',
      `mutation($id: ID!, $i: CombinazioneInput!) { updateCombinazione(id: $id, input: $i) { ${COMBINATION} } }`,
      { id: created.id, i: { minCovers: 5, name: 'Window' } },
    );
    expect(updateCombinazione).toMatchObject({ name: 'Window', minCovers: 5, maxCovers: 6 });
  });

  it('removes a deleted table from its combinations, deactivating one left with a single table', async () => {
    const [a, b, c] = [await createTable(4), await createTable(4), await createTable(4)];
    const pair = await createCombination({ name: 'pair', tableIds: [a, b], maxCovers: 8 });
    const trio = await createCombination({ name: 'trio', tableIds: [a, b, c], maxCovers: 8 });
    await gql('tavolo', 'mutation($id: ID!) { deleteTavolo(id: $id) { deleted } }', { id: a });
    expect(await readCombination(pair.id)).toMatchObject({ tableIds: [b], attivo: false });
    expect(await readCombination(trio.id)).toMatchObject({ tableIds: [b, c], attivo: true });
  });

  it('offers a combination only while none of its tables is booked for the window', async () => {
    await newRoom();
    const [a, b, c] = [await createTable(4), await createTable(4), await createTable(4)];
    const ab = await createCombination({ name: 'AB', tableIds: [a, b], minCovers: 5, maxCovers: 8 });
    const bc = await createCombination({ name: 'BC', tableIds: [b, c], minCovers: 5, maxCovers: 8 });
    const free = await check({ dataOra: '2027-04-01T20:00', numeroPersone: 6, durataMediaPasto: 90 });
    expect(free.availableCombinations.map((x) => x.id).sort()).toEqual([ab.id, bc.id].sort());
    expect(free.combinazioniDisponibili).toEqual(free.availableCombinations);
    expect(free.availableTables).toEqual([]); // no single table seats 6

    await book([c], '2027-04-01T21:00', 2, 60);
    const later = await check({ dataOra: '2027-04-01T20:00', numeroPersone: 6, durataMediaPasto: 90 });
    expect(later.availableCombinations.map((x) => x.id)).toEqual([ab.id]);
    // The party's size outside a combination's range: not offered.
    expect((await check({ dataOra: '2027-04-01T20:00', numeroPersone: 4 })).availableCombinations).toEqual(
      [],
    );
  });

  it('sizes the window by the turn time of the party when no durataMediaPasto is given', async () => {
    // A tenant with a combination whose table A is booked 21:30–22:30; the check asks for 20:00.
    const tenantWithBooking = async (turnTimes?: Array<{ maxCovers: number; minutes: number }>) => {
      admin = `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}`;
      if (turnTimes) {
        await gql(
          'capacity',
          'mutation($i: SlotConfigInput!) { updateSlotConfig(input: $i) { customized } }',
          {
            i: { turnTimes },
          },
        );
      }
      await newRoom();
      const [a, b] = [await createTable(4), await createTable(4)];
      const ab = await createCombination({ name: 'turn', tableIds: [a, b], maxCovers: 8 });
      await book([a], '2027-05-01T21:30', 2, 60);
      return async (covers: number) =>
        (await check({ dataOra: '2027-05-01T20:00', numeroPersone: covers })).availableCombinations.some(
          (x) => x.id === ab.id,
        );
    };
    // No turn times: the default meal (120 minutes) for everyone; 20:00–22:00 meets the 21:30 booking.
    const byDefault = await tenantWithBooking();
    expect(await byDefault(2)).toBe(false);
    const tuned = await tenantWithBooking([
      { maxCovers: 2, minutes: 90 },
      { maxCovers: 4, minutes: 120 },
    ]);
    expect(await tuned(2)).toBe(true); // 20:00–21:30: touches the booking, does not overlap
    expect(await tuned(3)).toBe(false); // 120 minutes
    expect(await tuned(8)).toBe(false); // beyond the last row: its 120 minutes
    // An explicit durataMediaPasto still wins over the turn time.
    expect(
      (await check({ dataOra: '2027-05-01T20:00', numeroPersone: 2, durataMediaPasto: 120 }))
        .availableCombinations,
    ).toEqual([]);
  });
});
