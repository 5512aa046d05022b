/** Closed-loop raw `insertOne`s with the official driver: the floor under booking creation. */
import { randomUUID } from 'node:crypto';
import { loadMongo } from './deps.js';
import type { LoadResult, MongoInsertJob } from './load-types.js';
import { mean, percentile, sortedCopy } from './stats.js';

let sequence = 0;

export async function runMongoInserts(job: MongoInsertJob): Promise<LoadResult> {
  const { MongoClient } = await loadMongo();
  const client = await new MongoClient(job.url, { maxPoolSize: job.concurrency }).connect();
  try {
    const collection = client.db(job.database).collection(job.collection);
    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    let started = 0;
    const began = performance.now();
    const end = began + job.seconds * 1000;
    const loop = async () => {
      while (performance.now() < end && started < job.maxRequests) {
        started++;
        const id = randomUUID();
        const doc = {
          ...job.doc,
          _id: `${String(job.doc.tenantId ?? 'bench')}:${id}`,
          id,
          codice: (sequence++).toString(36).toUpperCase().padStart(6, '0'),
        };
        const t0 = performance.now();
        try {
          await collection.insertOne(doc);
          latencies.push(performance.now() - t0);
        } catch (error) {
          const code = String((error as { code?: unknown }).code ?? 'error');
          failures[code] = (failures[code] ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, loop));
    const seconds = (performance.now() - began) / 1000;
    const sorted = sortedCopy(latencies);
    return {
      rps: latencies.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mean: mean(latencies),
      ok: latencies.length,
      failures,
      errors: 0,
      seconds,
    };
  } finally {
    await client.close();
  }
}
