import { describe, expect, it } from 'vitest';
import { WrittenOutboxes } from '../src/outbox/written-outboxes.js';

describe('WrittenOutboxes', () => {
  const collections = ['a', 'a.deleted-outbox', 'b'];

  it('a first claim reads every collection; right after, none until one is written', () => {
    const written = new WrittenOutboxes(200);
    expect(written.due(collections, 1_000)).toEqual(collections);
    expect(written.due(collections, 1_010)).toEqual([]);
    written.mark('b');
    expect(written.due(collections, 1_020)).toEqual(['b']);
    expect(written.due(collections, 1_030)).toEqual([]);
  });

  it('reads a collection again once it has not been read for maxQuietMs, written or not', () => {
    const written = new WrittenOutboxes(200);
    written.due(collections, 1_000);
    written.mark('a');
    expect(written.due(collections, 1_100)).toEqual(['a']);
    expect(written.due(collections, 1_200)).toEqual(['a.deleted-outbox', 'b']);
  });

  it('`all` reads every collection and counts them as read', () => {
    const written = new WrittenOutboxes(200);
    written.due(collections, 1_000);
    written.mark('a');
    expect(written.due(collections, 1_050, { all: true })).toEqual(collections);
    expect(written.due(collections, 1_060)).toEqual([]);
  });

  it('counts the writes to each collection; a reread has the next claim read it without counting a write', () => {
    const written = new WrittenOutboxes(200);
    written.due(collections, 1_000);
    written.mark('a');
    written.mark('a');
    expect([written.writeCount('a'), written.writeCount('b')]).toEqual([2, 0]);
    expect(written.due(collections, 1_010)).toEqual(['a']);
    written.reread('b');
    expect(written.due(collections, 1_020)).toEqual(['b']);
    expect([written.writeCount('a'), written.writeCount('b')]).toEqual([2, 0]);
  });
});
