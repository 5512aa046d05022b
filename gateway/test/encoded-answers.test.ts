import { describe, expect, it } from 'vitest';
import { createEncodedAnswers } from '../src/rest/encoded-answers.js';

describe('createEncodedAnswers', () => {
  it('gives the UTF-8 bytes of the text, encoding a repeated answer once', () => {
    const encoded = createEncodedAnswers();
    const json = '{"nome":"Caffè ☕"}';
    const first = encoded('k', json);
    expect(first.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(encoded('k', json)).toBe(first);
  });

  it('never serves bytes of another text under the same key', () => {
    const encoded = createEncodedAnswers();
    encoded('k', '{"v":1}');
    expect(encoded('k', '{"v":2}').toString()).toBe('{"v":2}');
  });

  it('keeps at most maxEntries answers, dropping the least recently used', () => {
    const encoded = createEncodedAnswers(2);
    const a = encoded('a', '"a"');
    const b = encoded('b', '"b"');
    expect(encoded('a', '"a"')).toBe(a);
    encoded('c', '"c"');
    expect(encoded('a', '"a"')).toBe(a);
    expect(encoded('b', '"b"')).not.toBe(b);
  });

  it('reports its entries against the bound, its reuses and what it dropped (bounded_state)', () => {
    const encoded = createEncodedAnswers(3);
    for (let i = 0; i < 10; i++) encoded(`k${i}`, `"${i}"`);
    encoded('k9', '"9"');
    encoded('k9', '"changed"');
    expect(encoded.stats()).toEqual({ entries: 3, capacity: 3, evictions: 7, hits: 1, misses: 11 });
  });
});
