import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '@coperto/auth';
import { createMemoryCache } from '@coperto/cache';
import { hostSubgraphsInProcess, type InProcessSubgraphs } from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore, type TenantCollection } from '@coperto/store';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { createTavoloSubgraph } from '../src/subgraph.js';
import { testDocument } from './test-document.js';

/** Wraps a store so that every collection call is counted by collection and method. */
function countingStore(store: DocumentStore) {
  const calls: string[] = [];
  const counted: DocumentStore = {
    ...store,
    ensureIndexes: (c, i) => store.ensureIndexes(c, i),
    outbox: (c) => store.outbox(c),
    ping: (t) => store.ping(t),
    info: () => store.info(),
    close: () => store.close(),
    forTenant(tenantId) {
      const tenantStore = store.forTenant(tenantId);
      return {
        tenantId,
        collection<T extends { id: string }>(name: string): TenantCollection<T> {
          const collection = tenantStore.collection<T>(name);
          return new Proxy(collection, {
            get(target, property, receiver) {
              const value = Reflect.get(target, property, receiver);
              if (typeof value !== 'function') return value;
              return (...args: unknown[]) => {
                calls.push(`${name}.${String(property)}`);
                return value.apply(target, args);
              };
            },
          });
        },
      };
    },
  };
  return { store: counted, calls };
}

describe('tavolo store access per request', () => {
  let dir: string;
  let store: DocumentStore;
  let calls: string[];
  let hosted: InProcessSubgraphs;
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tavolo-batching-'));
    const counting = countingStore(await openEmbeddedStore({ directory: dir, fsync: false }));
    store = counting.store;
    calls = counting.calls;
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
    token = `Bearer ${await mintToken({ tenantId: newTenantId() })}`;
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createTables = async (count: number, extra: Record<string, unknown> = {}) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { createTavolo } = await hosted.client.request(
        'tavolo',
        testDocument<{ createTavolo: { id: string } }>(
          'mutation($input: TavoloInput!) { createTavolo(input: $input) { id } }',
        ),
        { input: { name: `T${i}`, seats: 2 + (i % 6), ...extra } },
        token,
      );
      ids.push(createTavolo.id);
    }
    return ids;
  };

  it('resolves N entity references with one store query', async () => {
    const ids = await createTables(12);
    calls.length = 0;
    const result = await hosted.client.request(
      'tavolo',
      testDocument<{ _entities: Array<{ id: string; name: string } | null> }>(
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on Tavolo { id name } } }',
      ),
      { r: [...ids, 'missing', ids[0]].map((id) => ({ __typename: 'Tavolo', id })) },
      token,
    );
    expect(result._entities.map((e) => e?.id ?? null)).toEqual([...ids, null, ids[0]]);
    expect(calls).toEqual(['tavoli.findByIds']);
  });

  it('answers the availability check with the same number of store operations for 5 or 60 tables', async () => {
    const check = async () => {
      calls.length = 0;
      await hosted.client.request(
        'tavolo',
        testDocument('query($i: DisponibilitaInput!) { verificaDisponibilita(input: $i) { totalCapacity } }'),
        { i: { dataOra: '2027-03-01T20:00', numeroPersone: 2 } },
        token,
      );
      // capacity's turn times are read once per tenant and cached: not part of what scales with the tables.
      return calls.filter((c) => !c.startsWith('slot_config.')).sort();
    };
    const tenantToken = `Bearer ${await mintToken({ tenantId: newTenantId() })}`;
    token = tenantToken;
    await createTables(5);
    const few = await check();
    await createTables(55);
    const many = await check();
    expect(many).toEqual(few);
    // the tables are read once after a write (the directory of the new version), then not again until the next
    expect(few.filter((c) => c.startsWith('tavoli.'))).toEqual(['tavoli.find']);
    const repeated = await check();
    expect(repeated.filter((c) => c.startsWith('tavoli.'))).toEqual([]);
    expect(repeated.filter((c) => !c.startsWith('tavoli.'))).toEqual(
      few.filter((c) => !c.startsWith('tavoli.')),
    );
    expect(few.filter((c) => c.startsWith('combinazioni.'))).toEqual(['combinazioni.find']);
    // one window query: the candidate tables' agendas by id, never a scan of the day's bookings
    expect(few.filter((c) => c.startsWith('prenotazioni.') || c.startsWith('tavoli_agenda.'))).toEqual([
      'tavoli_agenda.findByIds',
    ]);
  });

  it('checks combinations with the same store operations for 2 or 12 of them', async () => {
    token = `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}`;
    const { createSala } = await hosted.client.request(
      'sala',
      testDocument<{ createSala: { id: string } }>(
        'mutation($i: SalaInput!) { createSala(input: $i) { id } }',
      ),
      { i: { codice: 'SALA', width: 1000, height: 600 } },
      token,
    );
    const addCombinations = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const [a, b] = await createTables(2, { seats: 3, roomId: createSala.id });
        await hosted.client.request(
          'tavolo',
          testDocument('mutation($i: CombinazioneInput!) { createCombinazione(input: $i) { id } }'),
          { i: { name: `C${i}`, tableIds: [a, b], maxCovers: 6 } },
          token,
        );
      }
    };
    const check = async () => {
      calls.length = 0;
      const { verificaDisponibilita } = await hosted.client.request(
        'tavolo',
        testDocument<{
          verificaDisponibilita: { availableCombinations: unknown[] };
        }>(
          'query($i: DisponibilitaInput!) { verificaDisponibilita(input: $i) { availableCombinations { id } } }',
        ),
        { i: { dataOra: '2027-03-01T20:00', numeroPersone: 5, durataMediaPasto: 120 } },
        token,
      );
      return { offered: verificaDisponibilita.availableCombinations.length, calls: [...calls].sort() };
    };
    await addCombinations(2);
    const few = await check();
    await addCombinations(10);
    const many = await check();
    expect([few.offered, many.offered]).toEqual([2, 12]);
    expect(many.calls).toEqual(few.calls);
    // the tables (once after the last table write: their tables come from the same list), the combinations,
    // one window query
    expect(few.calls).toEqual(['combinazioni.find', 'tavoli.find', 'tavoli_agenda.findByIds']);
    expect((await check()).calls).toEqual(['combinazioni.find', 'tavoli_agenda.findByIds']);
  });
});
