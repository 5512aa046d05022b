import { isPlainObject, type JsonObject } from './json-values.js';
import type { IndexSpec, OutboxMessage } from './types.js';

/**
 * The earlier embedded store's log format (`data.jsonl`), read once by the import into LMDB (legacy-import.ts):
 * one JSON object per line (JSON Lines), each the full resulting state of what it names, so replaying the lines
 * in order rebuilds the data and replaying a line twice changes nothing.
 *
 *   {"op":"header","format":"coperto-embedded-store","version":1}
 *   {"op":"indexes","collection":"tavoli","indexes":[{"name":"codice","fields":{"codice":1},"unique":true}]}
 *   {"op":"put","collection":"tavoli","tenantId":"t1","id":"a","doc":{"id":"a",...},"outbox":[...],"outboxAt":"..."}
 *   {"op":"delete","collection":"tavoli","tenantId":"t1","id":"a"}
 *
 * `doc` is the record as callers see it (no tenantId). `outbox`/`outboxAt` appear only while events are pending.
 */
const LOG_FORMAT = 'coperto-embedded-store';
const LOG_VERSION = 1;

export type LogEntry =
  | { op: 'header'; format: string; version: number }
  | { op: 'indexes'; collection: string; indexes: IndexSpec[] }
  | {
      op: 'put';
      collection: string;
      tenantId: string;
      id: string;
      doc: JsonObject;
      outbox?: OutboxMessage[];
      outboxAt?: string;
    }
  | { op: 'delete'; collection: string; tenantId: string; id: string };

export function headerEntry(): LogEntry {
  return { op: 'header', format: LOG_FORMAT, version: LOG_VERSION };
}

export function encodeEntry(entry: LogEntry): string {
  return JSON.stringify(entry);
}

/** Parses one line; throws on anything that is not a well-formed entry (the caller decides if it is a torn tail). */
export function decodeEntry(line: string): LogEntry {
  const value: unknown = JSON.parse(line);
  if (!isPlainObject(value)) throw new SyntaxError('log entry is not an object');
  switch (value.op) {
    case 'header':
      if (value.format !== LOG_FORMAT) throw new SyntaxError(`not a ${LOG_FORMAT} log`);
      if (value.version !== LOG_VERSION)
        throw new SyntaxError(`unsupported log version ${String(value.version)}`);
      return value as LogEntry;
    case 'indexes':
      if (typeof value.collection !== 'string' || !Array.isArray(value.indexes)) break;
      return value as LogEntry;
    case 'put':
      if (!isRecordRef(value) || !isPlainObject(value.doc)) break;
      return value as LogEntry;
    case 'delete':
      if (!isRecordRef(value)) break;
      return value as LogEntry;
  }
  throw new SyntaxError('malformed log entry');
}

function isRecordRef(value: JsonObject): boolean {
  return (
    typeof value.collection === 'string' && typeof value.tenantId === 'string' && typeof value.id === 'string'
  );
}

export interface SplitLog {
  /** Parsed entries of every complete, well-formed line. */
  entries: LogEntry[];
  /** Bytes of the file that hold those lines; anything after is a torn tail to cut off. */
  validBytes: number;
}

/**
 * Splits log contents into entries. A crash mid-append leaves a partial last line, or (on some file systems)
 * garbage such as NUL bytes after the last complete line: everything from the first bad line is dropped when
 * no good line follows it. A bad line followed by good lines is corruption, not a torn write: an Error.
 */
export function splitLog(contents: Buffer): SplitLog {
  const entries: LogEntry[] = [];
  let offset = 0;
  let validBytes = 0;
  let firstBad: { line: number; error: unknown } | null = null;
  let lineNumber = 0;
  while (offset < contents.length) {
    lineNumber++;
    const newline = contents.indexOf(0x0a, offset);
    const end = newline === -1 ? contents.length : newline;
    const text = contents.toString('utf8', offset, end);
    offset = newline === -1 ? contents.length : newline + 1;
    const complete = newline !== -1;
    let entry: LogEntry | null = null;
    let error: unknown = null;
    if (complete) {
      try {
        entry = decodeEntry(text);
      } catch (cause) {
        error = cause;
      }
    } else {
      error = new SyntaxError('incomplete last line');
    }
    if (entry) {
      if (firstBad) {
        throw new Error(`Embedded store log is corrupt at line ${firstBad.line}: ${String(firstBad.error)}`, {
          cause: firstBad.error,
        });
      }
      entries.push(entry);
      validBytes = offset;
    } else if (!firstBad && text.trim() !== '') {
      firstBad = { line: lineNumber, error };
    } else if (!firstBad && complete) {
      validBytes = offset; // an empty line is harmless
    }
  }
  return { entries, validBytes };
}
