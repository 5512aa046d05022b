import { trustedTenantId } from '@coperto/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../src/index.js';
import { narrowing, postingsOf } from '../src/index-narrowing.js';
import { LmdbEngine } from '../src/lmdb-engine.js';
import type { DocumentStore, Filter, IndexSpec, TenantCollection } from '../src/types.js';
import { temporaryDirectories } from './support/child-process.js';

const newDirectory = temporaryDirectories();

const INDEXES: IndexSpec[] = [
  { name: 'by_kind', fields: { kind: 1, n: 1 } },
  { name: 'by_tags', fields: { tags: 1 } },
  { name: 'by_day', fields: { day: 1 } },
  { name: 'by_nested', fields: { 'place.city': 1 } },
];

interface Doc {
  id: string;
  kind?: unknown;
  tags?: unknown;
  day?: unknown;
  n: number;
  place?: unknown;
}

/** Values of every shape an indexed field may hold: the postings must never lose a match. */
const KINDS: unknown[] = [
  'a',
  'b',
  'c',
  1,
  2,
  1.5,
  true,
  false,
  null,
  undefined,
  { x: 1 },
  ['a', 1],
  ['b'],
  [['a']],
  [{ x: 1 }],
  [],
  'a'.repeat(600),
  'é',
  '\u{10000}',
  '\uE000',
];
const TAGS: unknown[] = [
  ['window', 'quiet'],
  ['window'],
  'window',
  [],
  undefined,
  ['quiet', null],
  [{ t: 1 }],
];
const DAYS: unknown[] = [
  '2031-01-01',
  '2031-01-02',
  '2031-01-03',
  '2031-01-10',
  20310101,
  ['2031-01-02'],
  null,
];

/** A deterministic sequence of documents covering every combination often. */
function documents(count: number): Doc[] {
  return Array.from({ length: count }, (_, i) => {
    const doc: Doc = { id: `d${i}`, n: i % 7 };
    const kind = KINDS[i % KINDS.length];
    const tags = TAGS[(i * 3) % TAGS.length];
    const day = DAYS[(i * 5) % DAYS.length];
    if (kind !== undefined) doc.kind = kind;
    if (tags !== undefined) doc.tags = tags;
    if (day !== undefined) doc.day = day;
    if (i % 4 === 0) doc.place = { city: i % 8 === 0 ? 'Roma' : 'Milano' };
    return doc;
  });
}

const FILTERS: Filter[] = [
  { kind: 'a' },
  { kind: 1 },
  { kind: 1.5 },
  { kind: true },
  { kind: false },
  { kind: null },
  { kind: 'a'.repeat(600) },
  { kind: 'é' },
  { kind: { $eq: 'b' } },
  { kind: { $in: ['a', 2, true] } },
  { kind: { $in: ['a', null] } },
  { kind: { $eq: 'a', $ne: 'b' } },
  { kind: { $gte: 'a', $lte: 'b' } },
  { kind: { $gt: 'a', $lt: 'c' } },
  { kind: { $gte: 1, $lte: 2 } },
  { kind: { $gt: 1, $lt: 2 } },
  { kind: { $gte: 'a' } },
  { kind: { $gte: '\uD800', $lte: '\uFFFF' } },
  { kind: { $ne: 'a' } },
  { kind: { $exists: false } },
  { kind: 'a', n: { $gt: 2 } },
  { kind: 'b', $or: [{ n: 1 }, { n: 2 }] },
  { tags: 'window' },
  { tags: 'quiet' },
  { tags: { $in: ['quiet', 'none'] } },
  { tags: { $gte: 'quiet', $lte: 'window' } },
  { tags: { $size: 2 } },
  { day: '2031-01-02' },
  { day: { $gte: '2031-01-02', $lte: '2031-01-03' } },
  { day: { $gte: '2031-01-01', $lt: '2031-01-10' }, kind: { $in: ['a', 'b'] } },
  { day: 20310101 },
  { day: { $gte: 20310101, $lte: 20310101 } },
  { 'place.city': 'Roma' },
  { n: 3 },
  {},
];

describe('embedded store: finds narrowed by non-unique indexes', () => {
  let store: DocumentStore;
  let indexed: TenantCollection<Doc>;
  let plain: TenantCollection<Doc>;

  beforeAll(async () => {
    store = await openEmbeddedStore({ directory: await newDirectory(), fsync: false });
    const tenant = store.forTenant(trustedTenantId('narrowing'));
    indexed = tenant.collection<Doc>('narrow_indexed');
    plain = tenant.collection<Doc>('narrow_plain');
    const docs = documents(400);
    // Half before the indexes exist (their postings are filled when they are defined), half after.
    for (const doc of docs.slice(0, 200)) await Promise.all([indexed.insertOne(doc), plain.insertOne(doc)]);
    await store.ensureIndexes('narrow_indexed', INDEXES);
    for (const doc of docs.slice(200)) await Promise.all([indexed.insertOne(doc), plain.insertOne(doc)]);
    // Updates move records between postings; deletes remove theirs.
    for (let i = 0; i < 400; i += 9) {
      const update = {
        $set: { kind: KINDS[(i + 3) % KINDS.length] ?? 'z', tags: TAGS[(i + 1) % TAGS.length] ?? [] },
      };
      await indexed.findOneAndUpdate({ id: `d${i}` }, update);
      await plain.findOneAndUpdate({ id: `d${i}` }, update);
    }
    for (let i = 5; i < 400; i += 13) {
      await indexed.deleteOne({ id: `d${i}` });
      await plain.deleteOne({ id: `d${i}` });
    }
    await indexed.deleteMany({ kind: 'c' });
    await plain.deleteMany({ kind: 'c' });
  });
  afterAll(async () => store?.close());

  it.each(FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))(
    'find %s answers what a scan answers, in the same order',
    async (_label, filter) => {
      const expected = (await plain.find(filter)).map((doc) => doc.id);
      expect((await indexed.find(filter)).map((doc) => doc.id)).toEqual(expected);
      expect(await indexed.count(filter)).toBe(expected.length);
      expect((await indexed.findOne(filter))?.id ?? null).toBe(expected[0] ?? null);
    },
  );

  it('a conditional update through a narrowed filter changes the record a scan would', async () => {
    const before = await plain.findOne({ day: '2031-01-03', kind: 'b' });
    const updated = await indexed.findOneAndUpdate({ day: '2031-01-03', kind: 'b' }, { $set: { n: 99 } });
    expect(updated?.id).toBe(before?.id);
    expect(updated?.id).toBeDefined();
  });
});

describe('the engine reads only the postings a filter allows', () => {
  it('an equality, a set and a range read their records and the unusual ones; an unindexed filter scans', async () => {
    const engine = LmdbEngine.open(await newDirectory(), { fsync: false });
    try {
      const docs = [
        { id: 'a', day: '2031-01-01' },
        { id: 'b', day: '2031-01-02' },
        { id: 'c', day: '2031-01-03' },
        { id: 'd', day: ['2031-01-05'] },
        { id: 'e', day: { d: 1 } },
        { id: 'f' },
      ];
      await engine.write(() => {
        engine.defineIndexes('c', [{ name: 'by_day', fields: { day: 1 } }]);
        for (const doc of docs) engine.put('c', 't', { doc, outbox: [], outboxAt: null }, undefined);
      });
      const read = (filter: Filter) => {
        const plan = narrowing(filter, engine.indexSpecs('c'));
        return plan && engine.narrowed('c', 't', plan)?.map((record) => record.doc.id);
      };
      expect(read({ day: '2031-01-02' })).toEqual(['b', 'e']);
      expect(read({ day: { $in: ['2031-01-01', '2031-01-05'] } })).toEqual(['a', 'd', 'e']);
      expect(read({ day: { $gte: '2031-01-02', $lte: '2031-01-03' } })).toEqual(['b', 'c', 'd', 'e']);
      expect(read({ day: { $gte: '2031-01-02' } })).toBeNull();
      expect(read({ id: 'a' })).toBeNull();
      expect(read({ day: 'x'.repeat(600) })).toBeNull();
    } finally {
      await engine.close();
    }
  });

  it('posts scalars and the scalar elements of arrays; objects, long strings and nested arrays are unusual', () => {
    expect(postingsOf('x')).toEqual({ scalars: ['x'], array: false, unusual: false });
    expect(postingsOf(['x', 1, 'x', null])).toEqual({ scalars: ['x', 1], array: true, unusual: false });
    expect(postingsOf([['x']])).toEqual({ scalars: [], array: true, unusual: true });
    expect(postingsOf({ x: 1 })).toEqual({ scalars: [], array: false, unusual: true });
    expect(postingsOf('x'.repeat(600))).toEqual({ scalars: [], array: false, unusual: true });
    expect(postingsOf(null)).toEqual({ scalars: [], array: false, unusual: false });
    expect(postingsOf(undefined)).toEqual({ scalars: [], array: false, unusual: false });
  });
});
