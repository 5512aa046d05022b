import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it, vi } from 'vitest';
import { EmbeddedCollection } from '../src/embedded-collection.js';
import { LmdbEngine, type StoredRecord } from '../src/lmdb-engine.js';
import { temporaryDirectories } from './support/child-process.js';

const newDirectory = temporaryDirectories();

// Regression (bench scenario 15): an unsorted find with a limit decoded every match to return the first few, so
// the webhooks queue's due read cost seconds once 400,000 deliveries were waiting.
describe('an unsorted find with a limit', () => {
  it('reads records only up to the end of its page, and answers the same page', async () => {
    const engine = LmdbEngine.open(await newDirectory(), { fsync: false });
    try {
      const tenant = trustedTenantId('t_paging');
      const collection = new EmbeddedCollection<{ id: string; n: number }>(engine, 'paged', tenant);
      for (let n = 0; n < 50; n++) await collection.insertOne({ id: `d${n}`, n });
      let read = 0;
      const scan = engine.scan.bind(engine);
      vi.spyOn(engine, 'scan').mockImplementation(function* (name: string, tenantId: string) {
        for (const record of scan(name, tenantId)) {
          read++;
          yield record as StoredRecord;
        }
      });
      const page = await collection.find({ n: { $gte: 10 } }, { skip: 2, limit: 3 });
      expect(page.map((d) => d.n)).toEqual([12, 13, 14]);
      expect(read).toBe(15);
      // A sorted find still reads every match (the order needs them all), and pages the same way.
      read = 0;
      const sorted = await collection.find({ n: { $gte: 10 } }, { sort: { n: -1 }, limit: 2 });
      expect(sorted.map((d) => d.n)).toEqual([49, 48]);
      expect(read).toBe(50);
    } finally {
      await engine.close();
    }
  });
});
