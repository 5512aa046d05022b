/**
 * The DocumentStore contract suite: every adapter runs it (`describeDocumentStore('embedded', open)`), so
 * they behave the same. It opens one store for the whole suite; each test works in tenants of its own
 * (uniqueName), and the outbox tests in collections of their own, so several runs can share one database.
 */
import { trustedTenantId, type TenantId } from '@coperto/auth';
import { uniqueName } from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../../src/errors.js';
import type {
  DocumentStore,
  Filter,
  Identified,
  IndexSpec,
  OutboxMessage,
  PendingOutbox,
  TenantCollection,
  Update,
} from '../../src/types.js';

/** The update argument of a collection's findOneAndUpdate (the cases below pass ill-typed ones on purpose). */
type UpdateOf<C extends { findOneAndUpdate: (...args: never[]) => unknown }> = Parameters<
  C['findOneAndUpdate']
>[1];

interface Item extends Identified {
  [field: string]: unknown;
}

const INTERNAL_FIELDS = ['_id', 'tenantId', '_outbox', '_outboxAt', '_outboxLease', '_outboxClaim'];
const ITEMS = 'contract_items';
const CODED = 'contract_coded';
const CODED_INDEXES: IndexSpec[] = [
  { name: 'codice_unique', fields: { codice: 1 }, unique: true },
  { name: 'by_name', fields: { name: 1 } },
];

export function describeDocumentStore(name: string, open: () => Promise<DocumentStore>): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore;
    beforeAll(async () => {
      store = await open();
      await store.ensureIndexes(CODED, CODED_INDEXES);
    });
    afterAll(async () => {
      await store?.close();
    });

    const newTenant = (): TenantId => trustedTenantId(uniqueName('tenant'));
    const items = (tenantId: TenantId, collection = ITEMS): TenantCollection<Item> =>
      store.forTenant(tenantId).collection<Item>(collection);
    const ids = (docs: readonly Identified[]): string[] => docs.map((doc) => doc.id).sort();
    const event = (id: string, body: unknown = { id }): OutboxMessage => ({
      id,
      subject: `test.${id}`,
      body,
    });
    const messageIds = (pending: PendingOutbox): string[] => pending.messages.map((message) => message.id);

    describe('basics', () => {
      it('answers ping and describes itself', async () => {
        await expect(store.ping(2000)).resolves.toBeUndefined();
        expect(['mongo', 'embedded']).toContain(store.info().kind);
        expect(store.info().database).toEqual(expect.any(String));
      });

      it('inserts a record and reads it back by id, without internal fields', async () => {
        const coll = items(newTenant());
        const doc = {
          id: 'r1',
          name: 'Tavolo 1',
          covers: 4,
          tags: ['finestra'],
          meta: { sala: 'A', floor: 0 },
        };
        expect(await coll.insertOne(doc)).toEqual(doc);
        const read = await coll.findById('r1');
        expect(read).toEqual(doc);
        for (const field of INTERNAL_FIELDS) expect(read).not.toHaveProperty(field);
      });

      it('returns null for an unknown or empty id', async () => {
        const coll = items(newTenant());
        expect(await coll.findById('missing')).toBeNull();
        expect(await coll.findById('')).toBeNull();
      });

      it('finds nothing, and throws nothing, for an id longer than any key (1,100 four-byte characters)', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'a' });
        const long = '\u{1D512}'.repeat(1100);
        expect(await coll.findById(long)).toBeNull();
        expect(await coll.findByIds([long, 'a']).then(ids)).toEqual(['a']);
        expect(await coll.find({ id: long })).toEqual([]);
        expect(await coll.findOneAndUpdate({ id: long }, { $set: { v: 1 } })).toBeNull();
        expect(await coll.deleteOne({ id: long })).toBe(false);
      });

      it('refuses a second record with the same id (DuplicateKeyError on id)', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'same', v: 1 });
        await expectDuplicateKey(coll.insertOne({ id: 'same', v: 2 }), 'id');
        expect(await coll.findById('same')).toEqual({ id: 'same', v: 1 });
      });

      it('finds, counts, deletes one and deletes many', async () => {
        const coll = items(newTenant());
        for (const [index, kind] of ['a', 'a', 'b', 'b', 'b'].entries())
          await coll.insertOne({ id: `d${index}`, kind });
        expect(ids(await coll.find())).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
        expect(await coll.count()).toBe(5);
        expect(await coll.count({ kind: 'b' })).toBe(3);
        expect(await coll.deleteOne({ kind: 'a' })).toBe(true);
        expect(await coll.count({ kind: 'a' })).toBe(1);
        expect(await coll.deleteOne({ kind: 'zzz' })).toBe(false);
        expect(await coll.deleteMany({ kind: 'b' })).toBe(3);
        expect(await coll.deleteMany({ kind: 'b' })).toBe(0);
        expect(await coll.count()).toBe(1);
      });

      it('findOne returns the first record by sort, or null', async () => {
        const coll = items(newTenant());
        for (const n of [3, 1, 2]) await coll.insertOne({ id: `n${n}`, n });
        expect(await coll.findOne({}, { sort: { n: 1 } })).toEqual({ id: 'n1', n: 1 });
        expect(await coll.findOne({ n: { $gte: 2 } }, { sort: { n: -1 } })).toEqual({ id: 'n3', n: 3 });
        expect(await coll.findOne({ n: 99 })).toBeNull();
      });

      it('drops undefined properties, as JSON does', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'u', kept: 1, dropped: undefined });
        expect(await coll.findById('u')).toEqual({ id: 'u', kept: 1 });
      });

      it('refuses documents that are not plain JSON or set reserved fields (TypeError)', async () => {
        const coll = items(newTenant());
        const refused: Item[] = [
          { id: '' },
          { id: 'x', tenantId: 'other' },
          { id: 'x', _id: 'x' },
          { id: 'x', _outbox: [] },
          { id: 'x', at: new Date() },
          { id: 'x', n: Number.NaN },
          { id: 'x', 'dotted.key': 1 },
          { id: 'x', $op: 1 },
        ];
        for (const doc of refused) await expect(coll.insertOne(doc)).rejects.toBeInstanceOf(TypeError);
        expect(await coll.count()).toBe(0);
      });

      it('refuses filters and updates outside the documented subset (TypeError)', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'x', n: 1 });
        const filters: Filter[] = [
          { $where: 'true' },
          { n: { $regex: '1' } },
          { n: { $gt: 1, other: 2 } },
          { n: { $in: 1 } },
          { $or: [] },
          { _id: 'x' },
          { _outbox: { $exists: true } },
        ];
        for (const filter of filters) await expect(coll.find(filter)).rejects.toBeInstanceOf(TypeError);
        const updates = [
          { $rename: { n: 'm' } },
          { $set: { id: 'y' } },
          { $set: { tenantId: 'other' } },
          { $set: { _outbox: [] } },
          { $set: { n: 2 }, $inc: { n: 1 } },
          { $set: { a: 1, 'a.b': 2 } },
          { $inc: { n: '1' } },
        ];
        for (const update of updates) {
          await expect(
            coll.findOneAndUpdate({ id: 'x' }, update as UpdateOf<typeof coll>),
          ).rejects.toBeInstanceOf(TypeError);
        }
        expect(await coll.findById('x')).toEqual({ id: 'x', n: 1 });
      });
    });

    describe('filters', () => {
      const tenantId = trustedTenantId(uniqueName('filters'));
      const docs: Item[] = [
        {
          id: 'a',
          name: 'Alfa',
          n: 1,
          tags: ['x', 'y'],
          place: { city: 'Roma', zip: '00100' },
          lines: [
            { sku: 'p1', qty: 2 },
            { sku: 'p2', qty: 5 },
          ],
          flag: true,
          note: null,
        },
        {
          id: 'b',
          name: 'Beta',
          n: 5,
          tags: ['y'],
          place: { city: 'Milano', zip: '20100' },
          lines: [{ sku: 'p1', qty: 1 }],
          flag: false,
        },
        { id: 'c', name: 'Gamma', n: 10, tags: [], place: { city: 'Roma' }, lines: [], code: '10' },
        { id: 'd', name: 'Delta', n: '5', tags: ['z', 'x', 'w'], lines: [{ sku: 'p3', qty: 5 }] },
        { id: 'e', name: 'Epsilon', n: 2.5, scores: [3, 8, 12] },
      ];
      beforeAll(async () => {
        for (const doc of docs) await items(tenantId).insertOne(doc);
      });

      const cases: Array<[string, Filter, string[]]> = [
        ['no condition', {}, ['a', 'b', 'c', 'd', 'e']],
        ['equality', { name: 'Beta' }, ['b']],
        ['equality never crosses types (number)', { n: 5 }, ['b']],
        ['equality never crosses types (string)', { n: '5' }, ['d']],
        ['equality on an array field matches any element', { tags: 'x' }, ['a', 'd']],
        ['equality with an array matches the whole array', { tags: ['x', 'y'] }, ['a']],
        ['array equality is ordered', { tags: ['y', 'x'] }, []],
        ['dotted path into an object', { 'place.city': 'Roma' }, ['a', 'c']],
        [
          'equality with an object matches the whole object',
          { place: { city: 'Roma', zip: '00100' } },
          ['a'],
        ],
        ['dotted path through an array of objects', { 'lines.sku': 'p1' }, ['a', 'b']],
        ['dotted path with an array index', { 'lines.0.sku': 'p3' }, ['d']],
        ['null matches null and missing', { flag: null }, ['c', 'd', 'e']],
        ['$eq', { n: { $eq: 5 } }, ['b']],
        ['$ne (missing or different)', { n: { $ne: 5 } }, ['a', 'c', 'd', 'e']],
        ['$ne null means present', { note: { $ne: null } }, []],
        ['$in', { n: { $in: [1, 10] } }, ['a', 'c']],
        ['$in on an array field', { tags: { $in: ['w', 'q'] } }, ['d']],
        ['$nin (also matches missing)', { tags: { $nin: ['x'] } }, ['b', 'c', 'e']],
        ['$gt compares numbers with numbers only', { n: { $gt: 2 } }, ['b', 'c', 'e']],
        ['$gte', { n: { $gte: 5 } }, ['b', 'c']],
        ['$lt', { n: { $lt: 5 } }, ['a', 'e']],
        ['$lte', { n: { $lte: 2.5 } }, ['a', 'e']],
        ['$gt compares strings with strings only', { n: { $gt: '4' } }, ['d']],
        ['a number never compares with a string', { code: { $gt: 5 } }, []],
        ['a range on strings', { name: { $gte: 'D', $lt: 'G' } }, ['d', 'e']],
        ['a comparison on an array field tests each element', { scores: { $gt: 10 } }, ['e']],
        ['$exists true', { flag: { $exists: true } }, ['a', 'b']],
        ['$exists false', { flag: { $exists: false } }, ['c', 'd', 'e']],
        ['$exists on a null value', { note: { $exists: true } }, ['a']],
        ['$exists through a dotted path', { 'place.zip': { $exists: false } }, ['c', 'd', 'e']],
        ['$size', { tags: { $size: 2 } }, ['a']],
        ['$size 0', { tags: { $size: 0 } }, ['c']],
        ['$elemMatch with operators on values', { scores: { $elemMatch: { $gt: 5, $lt: 10 } } }, ['e']],
        [
          '$elemMatch with a filter on objects',
          { lines: { $elemMatch: { sku: 'p1', qty: { $gte: 2 } } } },
          ['a'],
        ],
        [
          '$elemMatch needs one element to match everything',
          { lines: { $elemMatch: { sku: 'p2', qty: 1 } } },
          [],
        ],
        ['$not', { n: { $not: { $gt: 2 } } }, ['a', 'd']],
        ['$or', { $or: [{ n: 1 }, { name: 'Gamma' }] }, ['a', 'c']],
        ['$and', { $and: [{ 'place.city': 'Roma' }, { n: { $gt: 1 } }] }, ['c']],
        ['nested $or and $and', { $or: [{ tags: 'z' }, { $and: [{ flag: true }, { n: 1 }] }] }, ['a', 'd']],
        ['several fields are all required', { 'place.city': 'Roma', tags: 'x' }, ['a']],
      ];
      it.each(cases)('%s', async (_label, filter, expected) => {
        expect(ids(await items(tenantId).find(filter))).toEqual(expected);
        expect(await items(tenantId).count(filter)).toBe(expected.length);
      });
    });

    describe('filters: MongoDB details an in-memory matcher can miss', () => {
      const tenantId = trustedTenantId(uniqueName('details'));
      beforeAll(async () => {
        const coll = items(tenantId);
        await coll.insertOne({ id: 'o', place: { city: 'Roma', zip: '00100' } });
        await coll.insertOne({ id: 'p', place: { zip: '00100', city: 'Roma' } });
        await coll.insertOne({ id: 'l', lines: [{ sku: 'p1', qty: 1 }, { sku: 'p2' }] });
        await coll.insertOne({ id: 'q', lines: [{ sku: 'p3', qty: 2 }] });
        await coll.insertOne({ id: 's', scores: [3, 8, 12] });
      });

      const cases: Array<[string, Filter, string[]]> = [
        ['object equality is ordered', { place: { zip: '00100', city: 'Roma' } }, ['p']],
        ['$in with an object is ordered too', { place: { $in: [{ city: 'Roma', zip: '00100' }] } }, ['o']],
        [
          '$ne with an object is ordered too',
          { place: { $ne: { zip: '00100', city: 'Roma' } } },
          ['l', 'o', 'q', 's'],
        ],
        ['null matches an array element missing the field', { 'lines.qty': null }, ['l', 'o', 'p', 's']],
        ['$nin null through an array', { 'lines.qty': { $nin: [null] } }, ['q']],
        ['$in with null matches a missing field', { lines: { $in: [null] } }, ['o', 'p', 's']],
        ['$ne null means present', { lines: { $ne: null } }, ['l', 'q']],
        ['$exists through an array of objects', { 'lines.qty': { $exists: true } }, ['l', 'q']],
        ['$elemMatch with $or', { lines: { $elemMatch: { $or: [{ sku: 'zz' }, { qty: 2 }] } } }, ['q']],
        [
          '$not of $elemMatch',
          { lines: { $not: { $elemMatch: { qty: { $gt: 1 } } } } },
          ['l', 'o', 'p', 's'],
        ],
        ['$elemMatch: one element within both bounds', { scores: { $elemMatch: { $gt: 10, $lt: 4 } } }, []],
        ['inherited properties are not fields', { constructor: { $exists: true } }, []],
      ];
      it.each(cases)('%s', async (_label, filter, expected) => {
        expect(ids(await items(tenantId).find(filter))).toEqual(expected);
        expect(await items(tenantId).count(filter)).toBe(expected.length);
      });
    });

    describe('updates', () => {
      it('$set (dotted paths create objects), $unset and $inc', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'u', a: 1, b: { c: 1 }, gone: 'x', n: 1 });
        const after = await coll.findOneAndUpdate(
          { id: 'u' },
          { $set: { a: 2, 'b.d': 'new', 'e.f.g': true }, $unset: { gone: '' }, $inc: { n: 2, fresh: 5 } },
        );
        const expected = { id: 'u', a: 2, b: { c: 1, d: 'new' }, e: { f: { g: true } }, n: 3, fresh: 5 };
        expect(after).toEqual(expected);
        expect(await coll.findById('u')).toEqual(expected);
        expect(await coll.findOneAndUpdate({ id: 'u' }, { $inc: { n: -3.5 } })).toMatchObject({ n: -0.5 });
      });

      it('$push one value or several with $each, in order', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'p', list: [1] });
        await coll.findOneAndUpdate({ id: 'p' }, { $push: { list: 2, other: 'first' } });
        const after = await coll.findOneAndUpdate({ id: 'p' }, { $push: { list: { $each: [3, 4] } } });
        expect(after).toEqual({ id: 'p', list: [1, 2, 3, 4], other: ['first'] });
      });

      it('$pull by value, by condition on values and by filter on objects', async () => {
        const coll = items(newTenant());
        await coll.insertOne({
          id: 'p',
          tags: ['a', 'b', 'a', 'c'],
          scores: [1, 5, 9, 12],
          lines: [
            { sku: 'x', qty: 1 },
            { sku: 'y', qty: 2 },
            { sku: 'x', qty: 3 },
          ],
        });
        const after = await coll.findOneAndUpdate(
          { id: 'p' },
          { $pull: { tags: 'a', scores: { $gte: 9 }, lines: { sku: 'x' }, missing: 1 } },
        );
        expect(after).toEqual({ id: 'p', tags: ['b', 'c'], scores: [1, 5], lines: [{ sku: 'y', qty: 2 }] });
      });

      it('updates the first match only, returns it after the update, and null when nothing matches', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'a', kind: 'k', v: 0 });
        await coll.insertOne({ id: 'b', kind: 'k', v: 0 });
        const updated = await coll.findOneAndUpdate({ kind: 'k' }, { $set: { v: 1 } });
        expect(updated).toMatchObject({ kind: 'k', v: 1 });
        expect(await coll.count({ v: 1 })).toBe(1);
        expect(await coll.findOneAndUpdate({ kind: 'none' }, { $set: { v: 2 } })).toBeNull();
        expect(await coll.count({ v: 2 })).toBe(0);
      });

      it('upsert seeds the new record from the filter equalities and $setOnInsert, only on insert', async () => {
        const coll = items(newTenant());
        const created = await coll.findOneAndUpdate(
          { id: 'u1', kind: 'k', 'place.sala': 'A', rank: { $gt: 5 }, $or: [{ x: 1 }, { x: 2 }] },
          { $set: { v: 1 }, $setOnInsert: { createdAt: '2026-01-01T00:00:00.000Z' } },
          { upsert: true },
        );
        const expected = {
          id: 'u1',
          kind: 'k',
          place: { sala: 'A' },
          v: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        };
        expect(created).toEqual(expected);
        expect(await coll.findById('u1')).toEqual(expected);
        const updated = await coll.findOneAndUpdate(
          { id: 'u1' },
          { $set: { v: 2 }, $setOnInsert: { createdAt: '2027-01-01T00:00:00.000Z' } },
          { upsert: true },
        );
        expect(updated).toEqual({ ...expected, v: 2 });
        expect(await coll.count()).toBe(1);
      });

      it('upsert takes the id from $setOnInsert, or generates one', async () => {
        const coll = items(newTenant());
        const named = await coll.findOneAndUpdate(
          { kind: 'a' },
          { $setOnInsert: { id: 'given' } },
          { upsert: true },
        );
        expect(named).toEqual({ id: 'given', kind: 'a' });
        const generated = await coll.findOneAndUpdate({ kind: 'b' }, { $set: { v: 1 } }, { upsert: true });
        expect(generated?.id).toEqual(expect.any(String));
        expect(await coll.findById(generated!.id)).toEqual({ id: generated!.id, kind: 'b', v: 1 });
      });

      it('refuses an update MongoDB cannot apply to the record, and changes or stores nothing', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        const doc = { id: 'r', name: 'x', tags: ['a'], n: 1 };
        await coll.insertOne(doc);
        const impossible: Update[] = [
          { $set: { n: 2 }, $inc: { name: 1 } },
          { $set: { n: 2 }, $push: { name: 'y' } },
          { $set: { n: 2 }, $pull: { name: 'x' } },
          { $set: { n: 2, 'name.first': 'y' } },
          { $set: { n: 2, 'tags.first': 'y' } },
          { $set: { n: 2 }, $inc: { 'tags.first': 1 } },
        ];
        for (const update of impossible) {
          await expect(
            coll.findOneAndUpdate({ id: 'r' }, update, { events: [event(uniqueName('e'))] }),
          ).rejects.toThrow();
        }
        expect(await coll.findById('r')).toEqual(doc);
        expect(await source.countPending()).toBe(0);
      });

      it('an upsert whose filter misses an existing id is a DuplicateKeyError on id', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'lock', owner: 'a' });
        await expectDuplicateKey(
          coll.findOneAndUpdate({ id: 'lock', owner: 'nobody' }, { $set: { owner: 'b' } }, { upsert: true }),
          'id',
        );
        expect(await coll.findById('lock')).toEqual({ id: 'lock', owner: 'a' });
      });
    });

    describe('sort, skip and limit', () => {
      const tenantId = trustedTenantId(uniqueName('sort'));
      const docs: Item[] = Array.from({ length: 12 }, (_, index) => ({
        id: `s${String(index).padStart(2, '0')}`,
        group: ['x', 'y', 'z'][index % 3],
        rank: (index * 7) % 5,
        place: { floor: index % 2 },
      }));
      beforeAll(async () => {
        for (const doc of [...docs].reverse()) await items(tenantId).insertOne(doc);
        await items(tenantId).insertOne({ id: 'missing-rank', group: 'w' });
        await items(tenantId).insertOne({ id: 'string-rank', group: 'w', rank: 'high' });
      });

      it('sorts by several keys, dotted paths included', async () => {
        const sorted = await items(tenantId).find(
          { group: { $ne: 'w' } },
          { sort: { 'place.floor': -1, rank: 1 } },
        );
        const expected = [...docs].sort(
          (a, b) =>
            (b.place as { floor: number }).floor - (a.place as { floor: number }).floor ||
            (a.rank as number) - (b.rank as number) ||
            a.id.localeCompare(b.id),
        );
        expect(sorted.map((doc) => doc.id)).toEqual(expected.map((doc) => doc.id));
      });

      it('sorts missing values first, then numbers, then strings (ascending)', async () => {
        const sorted = await items(tenantId).find({}, { sort: { rank: 1 } });
        expect(sorted[0]?.id).toBe('missing-rank');
        expect(sorted.at(-1)?.id).toBe('string-rank');
        const descending = await items(tenantId).find({}, { sort: { rank: -1 } });
        expect(descending[0]?.id).toBe('string-rank');
        expect(descending.at(-1)?.id).toBe('missing-rank');
      });

      it('sorts a missing field as null (ties by id), an array by its smallest element ascending and largest descending', async () => {
        const coll = items(newTenant());
        for (const doc of [
          { id: 'n2', v: null },
          { id: 'n1' },
          { id: 'n0', v: null },
          { id: 'range', v: [1, 10] },
          { id: 'five', v: 5 },
        ])
          await coll.insertOne(doc);
        const ascending = await coll.find({}, { sort: { v: 1 } });
        expect(ascending.map((doc) => doc.id)).toEqual(['n0', 'n1', 'n2', 'range', 'five']);
        const descending = await coll.find({}, { sort: { v: -1 } });
        expect(descending.map((doc) => doc.id)).toEqual(['range', 'five', 'n0', 'n1', 'n2']);
      });

      it('pages with skip and limit without losing or repeating records, even on ties', async () => {
        const all = await items(tenantId).find({}, { sort: { group: 1 } });
        const pages: Item[] = [];
        for (let skip = 0; skip < all.length; skip += 5) {
          pages.push(...(await items(tenantId).find({}, { sort: { group: 1 }, skip, limit: 5 })));
        }
        expect(pages.map((doc) => doc.id)).toEqual(all.map((doc) => doc.id));
        expect(new Set(pages.map((doc) => doc.id)).size).toBe(14);
        expect(pages.map((doc) => doc.group)).toEqual([...pages.map((doc) => doc.group)].sort());
      });

      it('limit alone and skip alone', async () => {
        expect(await items(tenantId).find({}, { limit: 3 })).toHaveLength(3);
        expect(await items(tenantId).find({}, { skip: 10 })).toHaveLength(4);
        expect(await items(tenantId).find({}, { skip: 20 })).toEqual([]);
      });
    });

    describe('findByIds', () => {
      it('returns the records that exist, once each, and only the tenant’s own', async () => {
        const mine = items(newTenant());
        const theirs = items(newTenant());
        await mine.insertOne({ id: 'a' });
        await mine.insertOne({ id: 'b' });
        await theirs.insertOne({ id: 'c' });
        expect(ids(await mine.findByIds(['a', 'b', 'a', 'c', 'missing']))).toEqual(['a', 'b']);
        expect(await mine.findByIds([])).toEqual([]);
      });
    });

    describe('group', () => {
      const byKey = (groups: Awaited<ReturnType<TenantCollection<Item>['group']>>) =>
        [...groups].sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)));

      it('counts and sums the matching records by the values of the by fields, the tenant’s own only', async () => {
        const tenant = newTenant();
        const mine = items(tenant);
        const rows: Item[] = [
          { id: 'a', at: '19:00', minutes: 90, covers: 2, state: 'ok' },
          { id: 'b', at: '19:00', minutes: 90, covers: 4, state: 'ok' },
          { id: 'c', at: '19:00', minutes: 120, covers: 3, state: 'ok' },
          { id: 'd', at: '20:00', minutes: 90, covers: 6, state: 'ok' },
          { id: 'e', at: '20:00', minutes: 90, covers: 5, state: 'gone' },
        ];
        for (const row of rows) await mine.insertOne(row);
        await items(newTenant()).insertOne({ id: 'x', at: '19:00', minutes: 90, covers: 8, state: 'ok' });
        const groups = await mine.group({ state: 'ok' }, { by: ['at', 'minutes'], sum: ['covers'] });
        expect(byKey(groups)).toEqual([
          { key: { at: '19:00', minutes: 120 }, count: 1, sums: { covers: 3 } },
          { key: { at: '19:00', minutes: 90 }, count: 2, sums: { covers: 6 } },
          { key: { at: '20:00', minutes: 90 }, count: 1, sums: { covers: 6 } },
        ]);
        expect(await mine.group({ state: 'none' }, { by: ['at'], sum: ['covers'] })).toEqual([]);
      });

      it('groups a missing by field with null, and adds 0 for a sum field that is missing or not a number', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'a', kind: null, n: 2 });
        await coll.insertOne({ id: 'b', n: 3 });
        await coll.insertOne({ id: 'c', kind: 'k', n: 'four' });
        await coll.insertOne({ id: 'd', kind: 'k' });
        await coll.insertOne({ id: 'e', kind: 'k', n: 1.5 });
        const groups = await coll.group({}, { by: ['kind'], sum: ['n'] });
        expect(byKey(groups)).toEqual([
          { key: { kind: 'k' }, count: 3, sums: { n: 1.5 } },
          { key: { kind: null }, count: 2, sums: { n: 5 } },
        ]);
      });

      it('refuses internal, dotted and operator fields and an empty by (TypeError)', async () => {
        const coll = items(newTenant());
        for (const spec of [
          { by: ['tenantId'], sum: [] },
          { by: ['a'], sum: ['_outbox'] },
          { by: ['a.b'], sum: [] },
          { by: ['$a'], sum: [] },
          { by: [], sum: ['n'] },
        ]) {
          await expect(coll.group({}, spec)).rejects.toBeInstanceOf(TypeError);
        }
        await expect(coll.group({ _outbox: 1 }, { by: ['a'], sum: [] })).rejects.toBeInstanceOf(TypeError);
      });
    });

    describe('tenant isolation', () => {
      it('the same id in two tenants is two records', async () => {
        const a = items(newTenant());
        const b = items(newTenant());
        await a.insertOne({ id: 'shared', owner: 'a' });
        await b.insertOne({ id: 'shared', owner: 'b' });
        await a.findOneAndUpdate({ id: 'shared' }, { $set: { touched: true } });
        expect(await a.findById('shared')).toEqual({ id: 'shared', owner: 'a', touched: true });
        expect(await b.findById('shared')).toEqual({ id: 'shared', owner: 'b' });
        expect(await a.deleteOne({ id: 'shared' })).toBe(true);
        expect(await b.findById('shared')).toEqual({ id: 'shared', owner: 'b' });
      });

      it('a tenant can never read, update, delete or count another tenant’s records', async () => {
        const tenantA = newTenant();
        const tenantB = newTenant();
        const a = items(tenantA);
        const b = items(tenantB);
        await a.insertOne({ id: 'a-own', kind: 'k' });
        await b.insertOne({ id: 'b-only', kind: 'k', secret: 's' });

        expect(await a.findById('b-only')).toBeNull();
        expect(await a.findByIds(['b-only'])).toEqual([]);
        expect(ids(await a.find())).toEqual(['a-own']);
        expect(await a.find({ tenantId: tenantB })).toEqual([]);
        expect(await a.find({ $or: [{ tenantId: tenantB }, { id: 'b-only' }] })).toEqual([]);
        expect(await a.findOne({ id: 'b-only' })).toBeNull();
        expect(await a.count({ kind: 'k' })).toBe(1);
        expect(await a.count({ tenantId: tenantB })).toBe(0);
        expect(await a.findOneAndUpdate({ id: 'b-only' }, { $set: { secret: 'stolen' } })).toBeNull();
        expect(await a.deleteOne({ id: 'b-only' })).toBe(false);
        expect(await a.deleteMany({ kind: 'k' })).toBe(1);

        const upserted = await a.findOneAndUpdate(
          { id: 'b-only' },
          { $set: { mine: true } },
          { upsert: true },
        );
        expect(upserted).toEqual({ id: 'b-only', mine: true });
        expect(await b.findById('b-only')).toEqual({ id: 'b-only', kind: 'k', secret: 's' });
        expect(await b.count()).toBe(1);
      });
    });

    describe('unique indexes (per tenant)', () => {
      it('ensureIndexes is idempotent', async () => {
        await expect(store.ensureIndexes(CODED, CODED_INDEXES)).resolves.toBeUndefined();
      });

      it('dropIndexes drops the named indexes where they exist, and nothing else', async () => {
        const collection = uniqueName('contract_dropped');
        await store.ensureIndexes(collection, [
          { name: 'code_unique', fields: { code: 1 }, unique: true },
          { name: 'by_kind', fields: { kind: 1 } },
          { name: 'kept_unique', fields: { other: 1 }, unique: true },
        ]);
        const coll = items(newTenant(), collection);
        await coll.insertOne({ id: 'd1', code: 'X', kind: 'a', other: 1 });
        await expectDuplicateKey(coll.insertOne({ id: 'd2', code: 'X', other: 2 }), 'code_unique');

        await store.dropIndexes(collection, ['code_unique', 'by_kind', 'never_defined']);
        // Again, and on a collection never written: nothing to drop, no error.
        await store.dropIndexes(collection, ['code_unique', 'by_kind']);
        await store.dropIndexes(uniqueName('contract_never'), ['code_unique']);

        // The unique index is gone (a second X is accepted), the one not named still refuses.
        await coll.insertOne({ id: 'd2', code: 'X', kind: 'a', other: 2 });
        await expectDuplicateKey(coll.insertOne({ id: 'd3', code: 'Y', other: 2 }), 'kept_unique');
        // The non-unique index is gone: its name takes other fields, and its field still filters.
        await store.ensureIndexes(collection, [{ name: 'by_kind', fields: { code: 1 } }]);
        expect(ids(await coll.find({ kind: 'a' }))).toEqual(['d1', 'd2']);
      });

      it('allows the same value in two tenants and refuses it within one', async () => {
        const a = items(newTenant(), CODED);
        const b = items(newTenant(), CODED);
        await a.insertOne({ id: 'a1', codice: 'ABC123', name: 'x' });
        await b.insertOne({ id: 'b1', codice: 'ABC123', name: 'x' });
        await expectDuplicateKey(a.insertOne({ id: 'a2', codice: 'ABC123', name: 'y' }), 'codice_unique');
        expect(await a.count()).toBe(1);
        await a.insertOne({ id: 'a3', codice: 'OTHER1', name: 'x' });
        expect(await a.count()).toBe(2);
      });

      it('refuses an update that takes a used value, and allows keeping one’s own', async () => {
        const coll = items(newTenant(), CODED);
        await coll.insertOne({ id: 'r1', codice: 'AAA111' });
        await coll.insertOne({ id: 'r2', codice: 'BBB222' });
        await expectDuplicateKey(
          coll.findOneAndUpdate({ id: 'r2' }, { $set: { codice: 'AAA111' } }),
          'codice_unique',
        );
        expect(await coll.findById('r2')).toEqual({ id: 'r2', codice: 'BBB222' });
        expect(await coll.findOneAndUpdate({ id: 'r1' }, { $set: { codice: 'AAA111', v: 1 } })).toEqual({
          id: 'r1',
          codice: 'AAA111',
          v: 1,
        });
      });

      it('refuses an upsert that would create a used value', async () => {
        const coll = items(newTenant(), CODED);
        await coll.insertOne({ id: 'r1', codice: 'CCC333' });
        await expectDuplicateKey(
          coll.findOneAndUpdate({ id: 'r2' }, { $set: { codice: 'CCC333' } }, { upsert: true }),
          'codice_unique',
        );
        expect(await coll.findById('r2')).toBeNull();
      });

      it('frees the value when its record is deleted or changed', async () => {
        const coll = items(newTenant(), CODED);
        await coll.insertOne({ id: 'r1', codice: 'DDD444' });
        await coll.insertOne({ id: 'r2', codice: 'EEE555' });
        await coll.deleteOne({ id: 'r1' });
        await coll.findOneAndUpdate({ id: 'r2' }, { $set: { codice: 'FFF666' } });
        await coll.insertOne({ id: 'r3', codice: 'DDD444' });
        await coll.insertOne({ id: 'r4', codice: 'EEE555' });
        expect(await coll.count()).toBe(3);
      });
    });

    describe('atomicity', () => {
      it('of 25 concurrent conditional updates on one record, exactly one wins', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'lock', owner: null, version: 0 });
        const results = await Promise.all(
          Array.from({ length: 25 }, (_, racer) =>
            coll.findOneAndUpdate(
              { id: 'lock', owner: null },
              { $set: { owner: `racer-${racer}` }, $inc: { version: 1 } },
            ),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(await coll.findById('lock')).toEqual({ id: 'lock', owner: winners[0]!.owner, version: 1 });
      });

      it('compare-and-set on a version: one of 25 writers holding the same version wins', async () => {
        const coll = items(newTenant());
        await coll.insertOne({ id: 'doc', version: 7, value: 'start' });
        const results = await Promise.all(
          Array.from({ length: 25 }, (_, writer) =>
            coll.findOneAndUpdate({ id: 'doc', version: 7 }, { $set: { version: 8, value: `w${writer}` } }),
          ),
        );
        expect(results.filter((result) => result !== null)).toHaveLength(1);
      });

      it('concurrent upserts of one id make one record and apply every update', async () => {
        const coll = items(newTenant());
        const results = await Promise.all(
          Array.from({ length: 10 }, () =>
            coll.findOneAndUpdate({ id: 'counter' }, { $inc: { n: 1 } }, { upsert: true }),
          ),
        );
        expect(results.every((result) => result !== null)).toBe(true);
        expect(await coll.count()).toBe(1);
        expect(await coll.findById('counter')).toEqual({ id: 'counter', n: 10 });
      });

      it('concurrent inserts of one id: one succeeds, the others are DuplicateKeyError', async () => {
        const coll = items(newTenant());
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, writer) => coll.insertOne({ id: 'one', writer })),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DuplicateKeyError);
        }
      });
    });

    describe('outbox', () => {
      it('stores events with inserts and updates, and hands them out in write order', async () => {
        const collection = outboxCollection();
        const tenantId = newTenant();
        const coll = items(tenantId, collection);
        const source = store.outbox([collection]);
        expect(await source.countPending()).toBe(0);
        await coll.insertOne({ id: 'r', v: 0 }, { events: [event('e1', { n: 1, nested: { ok: true } })] });
        await coll.findOneAndUpdate({ id: 'r' }, { $set: { v: 1 } }, { events: [event('e2'), event('e3')] });
        expect(await source.countPending()).toBe(1);
        const [pending, ...rest] = await source.claimPending(10, 60_000);
        expect(rest).toEqual([]);
        expect(pending).toEqual({
          collection,
          tenantId,
          id: 'r',
          messages: [event('e1', { n: 1, nested: { ok: true } }), event('e2'), event('e3')],
        });
        const read = await coll.findById('r');
        expect(read).toEqual({ id: 'r', v: 1 });
      });

      it('acknowledge removes exactly the published events; events added after the claim survive', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1'), event('e2')] });
        const [first] = await source.claimPending(10, 60_000);
        expect(messageIds(first!)).toEqual(['e1', 'e2']);
        await coll.findOneAndUpdate({ id: 'r' }, { $set: { v: 1 } }, { events: [event('e3')] });
        await source.acknowledge([{ pending: first!, messageIds: ['e1', 'e2'] }]);
        expect(await source.countPending()).toBe(1);
        const [second] = await source.claimPending(10, 60_000);
        expect(messageIds(second!)).toEqual(['e3']);
        await source.acknowledge([{ pending: second!, messageIds: ['e3'] }]);
        expect(await source.countPending()).toBe(0);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
        expect(await coll.findById('r')).toEqual({ id: 'r', v: 1 });
      });

      it('a partial acknowledgement keeps the rest pending, in order', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1'), event('e2'), event('e3')] });
        const [first] = await source.claimPending(1, 1);
        await source.acknowledge([{ pending: first!, messageIds: ['e2'] }]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [second] = await source.claimPending(1, 60_000);
        expect(messageIds(second!)).toEqual(['e1', 'e3']);
      });

      it('a partial acknowledgement keeps the claim; acknowledging all that was claimed releases it', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1'), event('e2')] });
        const [claimed] = await source.claimPending(10, 60_000);
        await source.acknowledge([{ pending: claimed!, messageIds: ['e1'] }]);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
        await coll.findOneAndUpdate({ id: 'r' }, { $set: { v: 1 } }, { events: [event('e3')] });
        await source.acknowledge([
          { pending: { ...claimed!, messages: claimed!.messages.slice(1) }, messageIds: ['e2'] },
        ]);
        const [again] = await source.claimPending(10, 60_000);
        expect(messageIds(again!)).toEqual(['e3']);
      });

      it('acknowledges a round of records at once, each as if acknowledged alone', async () => {
        const [first, second] = [outboxCollection(), outboxCollection()];
        const tenantId = newTenant();
        const coll = items(tenantId, first);
        const source = store.outbox([first, second]);
        await coll.insertOne({ id: 'done' }, { events: [event('d1'), event('d2')] });
        await coll.insertOne({ id: 'grown' }, { events: [event('g1')] });
        await coll.insertOne({ id: 'partial' }, { events: [event('p1'), event('p2')] });
        await items(tenantId, second).insertOne({ id: 'other' }, { events: [event('o1')] });
        const claimed = new Map(
          (await source.claimPending(10, 60_000)).map((pending) => [pending.id, pending]),
        );
        expect([...claimed.keys()].sort()).toEqual(['done', 'grown', 'other', 'partial']);
        await coll.findOneAndUpdate({ id: 'grown' }, { $set: { v: 1 } }, { events: [event('g2')] });
        await source.acknowledge([
          { pending: claimed.get('done')!, messageIds: ['d1', 'd2'] },
          { pending: claimed.get('grown')!, messageIds: ['g1'] },
          { pending: claimed.get('partial')!, messageIds: ['p1'] },
          { pending: claimed.get('other')!, messageIds: ['o1'] },
        ]);
        // 'grown' keeps the event written after the claim, released; 'partial' keeps the rest, still claimed.
        expect(await source.countPending()).toBe(2);
        const again = await source.claimPending(10, 60_000);
        expect(again.map((pending) => [pending.id, messageIds(pending)])).toEqual([['grown', ['g2']]]);
        expect(await coll.findById('done')).toEqual({ id: 'done' });
        expect(await coll.findById('grown')).toEqual({ id: 'grown', v: 1 });
      });

      it('a claim after writes finds every record written with events (insert, update, delete)', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
        await coll.insertOne({ id: 'r1' }, { events: [event('i1')] });
        await coll.insertOne({ id: 'r2' });
        const afterInsert = await source.claimPending(10, 60_000, { afterWrites: true });
        expect(afterInsert.map(messageIds)).toEqual([['i1']]);
        await source.acknowledge([{ pending: afterInsert[0]!, messageIds: ['i1'] }]);
        await coll.findOneAndUpdate({ id: 'r2' }, { $set: { v: 1 } }, { events: [event('u1')] });
        const afterUpdate = await source.claimPending(10, 60_000, { afterWrites: true });
        expect(afterUpdate.map(messageIds)).toEqual([['u1']]);
        await source.acknowledge([{ pending: afterUpdate[0]!, messageIds: ['u1'] }]);
        expect(await coll.deleteOne({ id: 'r1' }, { events: [event('d1')] })).toBe(true);
        const afterDelete = await source.claimPending(10, 60_000, { afterWrites: true });
        expect(afterDelete.map(messageIds)).toEqual([['d1']]);
      });

      it('an acknowledgement that releases a record written while claimed says so, and a claim after writes finds the event', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
        await coll.insertOne({ id: 'quiet' }, { events: [event('q1')] });
        await coll.insertOne({ id: 'busy' }, { events: [event('b1')] });
        const first = await source.claimPending(10, 60_000, { afterWrites: true });
        expect(first.map(messageIds).sort()).toEqual([['b1'], ['q1']]);
        const claimed = new Map(first.map((pending) => [pending.id, pending]));
        // Nothing written since the claim: nothing to claim again.
        expect(await source.acknowledge([{ pending: claimed.get('quiet')!, messageIds: ['q1'] }])).toBe(
          false,
        );
        await coll.findOneAndUpdate({ id: 'busy' }, { $set: { v: 1 } }, { events: [event('b2')] });
        // The record is still leased: a claim after the write skips it.
        expect(await source.claimPending(10, 60_000, { afterWrites: true })).toEqual([]);
        expect(await source.acknowledge([{ pending: claimed.get('busy')!, messageIds: ['b1'] }])).toBe(true);
        const again = await source.claimPending(10, 60_000, { afterWrites: true });
        expect(again.map((pending) => [pending.id, messageIds(pending)])).toEqual([['busy', ['b2']]]);
      });

      it('stores no events for a write that did not happen', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        expect(
          await coll.findOneAndUpdate({ id: 'none' }, { $set: { v: 1 } }, { events: [event('x1')] }),
        ).toBeNull();
        await coll.insertOne({ id: 'r' });
        await expectDuplicateKey(coll.insertOne({ id: 'r' }, { events: [event('x2')] }), 'id');
        await expect(
          coll.findOneAndUpdate({ id: 'r' }, { $inc: { v: 'bad' } } as unknown as UpdateOf<typeof coll>, {
            events: [event('x3')],
          }),
        ).rejects.toBeInstanceOf(TypeError);
        expect(await source.countPending()).toBe(0);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
      });

      it('a claim is leased: a concurrent claimer gets other records, and the record returns after the lease', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        const other = store.outbox([collection]);
        for (const id of ['r1', 'r2', 'r3', 'r4'])
          await coll.insertOne({ id }, { events: [event(`${id}-e`)] });
        const [mine, theirs] = await Promise.all([
          source.claimPending(2, 60_000),
          other.claimPending(10, 60_000),
        ]);
        const claimedIds = [...mine!, ...theirs!].map((pending) => pending.id);
        expect(claimedIds.sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
        expect(await source.claimPending(10, 60_000)).toEqual([]);

        const expiring = outboxCollection();
        const shortLived = store.outbox([expiring]);
        await items(newTenant(), expiring).insertOne({ id: 'x' }, { events: [event('x-e')] });
        expect(await shortLived.claimPending(10, 1)).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await shortLived.claimPending(10, 60_000)).map((pending) => pending.id)).toEqual(['x']);
      });

      it('three claimers racing over a backlog lease disjoint records and together get all of them', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const ids = Array.from({ length: 60 }, (_, i) => `b${String(i).padStart(2, '0')}`);
        for (const id of ids) await coll.insertOne({ id }, { events: [event(`${id}-e`)] });
        const claimers = [store.outbox([collection]), store.outbox([collection]), store.outbox([collection])];
        const batches = await Promise.all(claimers.map((source) => source.claimPending(25, 60_000)));
        const claimedIds = batches.flat().map((pending) => pending.id);
        expect(new Set(claimedIds).size).toBe(claimedIds.length);
        for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(25);
        const rest = await claimers[0]!.claimPending(100, 60_000);
        expect([...claimedIds, ...rest.map((pending) => pending.id)].sort()).toEqual(ids);
        expect(await claimers[1]!.claimPending(100, 60_000)).toEqual([]);
      });

      it('loses nothing: a relay loop publishes every event exactly once, across tenants and collections', async () => {
        const collections = [outboxCollection(), outboxCollection()];
        const tenants = [newTenant(), newTenant()];
        const source = store.outbox(collections);
        const written: string[] = [];
        for (let index = 0; index < 12; index++) {
          const tenantId = tenants[index % 2]!;
          const coll = items(tenantId, collections[index % 3 === 0 ? 1 : 0]);
          const events = [event(`m${index}-a`), event(`m${index}-b`)];
          written.push(...events.map((message) => message.id));
          await coll.insertOne({ id: `r${index}` }, { events });
        }
        const published: string[] = [];
        for (let round = 0; round < 20 && (await source.countPending()) > 0; round++) {
          for (const pending of await source.claimPending(5, 60_000)) {
            expect(tenants).toContain(pending.tenantId);
            expect(await items(pending.tenantId, pending.collection).findById(pending.id)).not.toBeNull();
            published.push(...messageIds(pending));
            await source.acknowledge([{ pending, messageIds: messageIds(pending) }]);
          }
        }
        expect(published.sort()).toEqual(written.sort());
        expect(await source.countPending()).toBe(0);
      });

      it('acknowledging a record deleted meanwhile is harmless', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1')] });
        const [pending] = await source.claimPending(10, 60_000);
        await coll.deleteOne({ id: 'r' });
        await expect(source.acknowledge([{ pending: pending!, messageIds: ['e1'] }])).resolves.toBe(false);
        // The delete kept the event (at-least-once: it may come once more), and relaying it purges it.
        for (const again of await source.claimPending(10, 60_000)) {
          expect(messageIds(again)).toEqual(['e1']);
          await source.acknowledge([{ pending: again, messageIds: messageIds(again) }]);
        }
        expect(await source.countPending()).toBe(0);
      });

      it('a delete never drops a pending event: deleteOne and deleteMany leave them to the relay, then purge', async () => {
        const collection = outboxCollection();
        const tenantId = newTenant();
        const coll = items(tenantId, collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'a', k: 1 }, { events: [event('a1')] });
        await coll.findOneAndUpdate({ id: 'a' }, { $set: { v: 1 } }, { events: [event('a2')] });
        await coll.insertOne({ id: 'b', k: 2 }, { events: [event('b1')] });
        await coll.insertOne({ id: 'c', k: 2 });
        await coll.insertOne({ id: 'd', k: 3 }, { events: [event('d1')] });
        expect(await coll.deleteOne({ id: 'a' })).toBe(true);
        expect(await coll.deleteMany({ k: 2 })).toBe(2);
        // Gone for every reader: the same id can be inserted again.
        expect(await coll.findById('a')).toBeNull();
        expect(ids(await coll.find())).toEqual(['d']);
        expect(await coll.count()).toBe(1);
        await coll.insertOne({ id: 'a', k: 9 });
        expect(await coll.findById('a')).toEqual({ id: 'a', k: 9 });

        const published: string[] = [];
        for (let round = 0; round < 10 && (await source.countPending()) > 0; round++) {
          for (const pending of await source.claimPending(10, 60_000)) {
            expect(pending.tenantId).toBe(tenantId);
            published.push(...messageIds(pending));
            await source.acknowledge([{ pending, messageIds: messageIds(pending) }]);
          }
        }
        expect(published.sort()).toEqual(['a1', 'a2', 'b1', 'd1']);
        expect(await source.countPending()).toBe(0);
        expect(await source.claimPending(10, 60_000)).toEqual([]);
      });

      it('a delete releases the unique values of its record even while its events wait', async () => {
        const tenantId = newTenant();
        const coll = items(tenantId, CODED);
        await coll.insertOne({ id: 'old', codice: 'TOMB' }, { events: [event(uniqueName('t'))] });
        expect(await coll.deleteOne({ codice: 'TOMB' })).toBe(true);
        await expect(coll.insertOne({ id: 'new', codice: 'TOMB' })).resolves.toEqual({
          id: 'new',
          codice: 'TOMB',
        });
      });

      it("a delete's own events go to the outbox with the record's pending ones, in order", async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1')] });
        expect(await coll.deleteOne({ id: 'r' }, { events: [event('gone')] })).toBe(true);
        expect(await coll.deleteOne({ id: 'r' }, { events: [event('never')] })).toBe(false);
        const claimed = await source.claimPending(10, 60_000);
        expect(claimed.map(messageIds)).toEqual([['e1', 'gone']]);
        await source.acknowledge([{ pending: claimed[0]!, messageIds: ['e1', 'gone'] }]);
        expect(await source.countPending()).toBe(0);
      });
    });

    describe('returned documents are copies', () => {
      it('changing a returned or inserted document never changes the stored record', async () => {
        const coll = items(newTenant());
        const input = { id: 'c', list: [1, 2], nested: { value: 'v' } };
        const inserted = await coll.insertOne(input);
        input.list.push(99);
        input.nested.value = 'changed-input';
        (inserted.list as number[]).push(98);
        const found = await coll.findById('c');
        (found!.nested as { value: string }).value = 'changed-found';
        const [listed] = await coll.find({ id: 'c' });
        (listed!.list as number[]).length = 0;
        const updated = await coll.findOneAndUpdate({ id: 'c' }, { $set: { extra: { deep: [1] } } });
        (updated!.extra as { deep: number[] }).deep.push(2);
        expect(await coll.findById('c')).toEqual({
          id: 'c',
          list: [1, 2],
          nested: { value: 'v' },
          extra: { deep: [1] },
        });
      });

      it('changing claimed events never changes the outbox', async () => {
        const collection = outboxCollection();
        const coll = items(newTenant(), collection);
        const source = store.outbox([collection]);
        await coll.insertOne({ id: 'r' }, { events: [event('e1', { list: [1] })] });
        const [first] = await source.claimPending(10, 0);
        (first!.messages[0]!.body as { list: number[] }).list.push(2);
        first!.messages.push(event('fake'));
        const [again] = await source.claimPending(10, 60_000);
        expect(again!.messages).toEqual([event('e1', { list: [1] })]);
      });
    });

    function outboxCollection(): string {
      return `contract_outbox_${uniqueName('c')}`;
    }
  });
}

/** Awaits a rejection that must be a DuplicateKeyError naming `index`. */
async function expectDuplicateKey(promise: Promise<unknown>, index: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DuplicateKeyError);
  expect((error as DuplicateKeyError).index).toBe(index);
}
