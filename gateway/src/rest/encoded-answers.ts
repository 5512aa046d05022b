import type { BoundedStats } from '@coperto/metrics';

/** The encoder of cached answers, and what it holds against its bound. */
export interface EncodedAnswers {
  (key: string, json: string): Buffer;
  /** Entries against the bound; a hit is an answer whose bytes were reused, a miss one encoded again. */
  stats(): BoundedStats;
}

/**
 * The UTF-8 bytes of recently served cached answers, so a cache hit does not encode the same JSON text again
 * (a table list is tens of kilobytes). Looked up by the caller's key and checked against the text the cache
 * just returned, so these bytes are only ever the encoding of that very text. At most `maxEntries` answers;
 * the least recently used go first.
 */
export function createEncodedAnswers(maxEntries = 256): EncodedAnswers {
  const answers = new Map<string, { json: string; bytes: Buffer }>();
  const counts = { hits: 0, misses: 0, evictions: 0 };
  const encode = (key: string, json: string) => {
    const known = answers.get(key);
    answers.delete(key);
    const reused = known !== undefined && known.json === json;
    const entry = reused ? known : { json, bytes: Buffer.from(json) };
    counts[reused ? 'hits' : 'misses']++;
    answers.set(key, entry);
    for (const oldest of answers.keys()) {
      if (answers.size <= maxEntries) break;
      answers.delete(oldest);
      counts.evictions++;
    }
    return entry.bytes;
  };
  return Object.assign(encode, {
    stats: () => ({ entries: answers.size, capacity: maxEntries, ...counts }),
  });
}
