import type { BoundedStats } from '@coperto/metrics';
import { createCountedLru } from '../host/counted-lru.js';

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
  const answers = createCountedLru<{ json: string; bytes: Buffer }>(maxEntries);
  const encode = (key: string, json: string) => {
    const known = answers.get(key, (answer) => answer.json === json);
    if (known) return known.bytes;
    const bytes = Buffer.from(json);
    answers.set(key, { json, bytes });
    return bytes;
  };
  return Object.assign(encode, { stats: answers.stats });
}
