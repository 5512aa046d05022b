import { describe, expect, it } from 'vitest';
import {
  decodeEntry,
  encodeEntry,
  headerEntry,
  splitLog,
  type LogEntry,
} from '../src/embedded-log-entries.js';

const header = encodeEntry(headerEntry());
const put: LogEntry = { op: 'put', collection: 'c', tenantId: 't', id: 'a', doc: { id: 'a', n: 1 } };
const line = encodeEntry(put);

describe('splitLog', () => {
  const cases: Array<[string, string | Buffer, number, number]> = [
    ['an empty file', '', 0, 0],
    ['complete lines', `${header}\n${line}\n`, 2, `${header}\n${line}\n`.length],
    ['a torn last line', `${header}\n${line}\n{"op":"put","coll`, 2, `${header}\n${line}\n`.length],
    ['a complete but truncated JSON last line', `${header}\n${line.slice(0, 20)}\n`, 1, header.length + 1],
    [
      'a zero-filled tail',
      Buffer.concat([Buffer.from(`${header}\n`), Buffer.alloc(32)]),
      1,
      header.length + 1,
    ],
    ['blank lines', `${header}\n\n${line}\n`, 2, `${header}\n\n${line}\n`.length],
  ];
  it.each(cases)('reads %s', (_label, contents, entries, validBytes) => {
    const split = splitLog(Buffer.isBuffer(contents) ? contents : Buffer.from(contents));
    expect(split.entries).toHaveLength(entries);
    expect(split.validBytes).toBe(validBytes);
  });

  it('counts bytes, not characters', () => {
    const unicode = encodeEntry({ ...put, doc: { id: 'a', name: 'Caffè ☕' } } as LogEntry);
    const contents = Buffer.from(`${header}\n${unicode}\n`);
    expect(splitLog(contents).validBytes).toBe(contents.length);
  });

  it('refuses a bad line followed by good ones (corruption, not a torn write)', () => {
    expect(() => splitLog(Buffer.from(`${header}\nnot json\n${line}\n`))).toThrow(/corrupt at line 2/);
  });
});

describe('decodeEntry', () => {
  it('round-trips every entry kind', () => {
    const entries: LogEntry[] = [
      headerEntry(),
      { op: 'indexes', collection: 'c', indexes: [{ name: 'u', fields: { a: 1 }, unique: true }] },
      { ...put, outbox: [{ id: 'e', subject: 's', body: null }], outboxAt: '2026-01-01T00:00:00.000Z' },
      { op: 'delete', collection: 'c', tenantId: 't', id: 'a' },
    ];
    for (const entry of entries) expect(decodeEntry(encodeEntry(entry))).toEqual(entry);
  });

  it('refuses malformed entries and foreign formats', () => {
    const refused = [
      '[]',
      '{"op":"put","collection":"c"}',
      '{"op":"delete","collection":"c","tenantId":1,"id":"a"}',
      '{"op":"header","format":"other","version":1}',
      '{"op":"header","format":"coperto-embedded-store","version":2}',
      '{"op":"drop"}',
    ];
    for (const text of refused) expect(() => decodeEntry(text)).toThrow(SyntaxError);
  });
});
