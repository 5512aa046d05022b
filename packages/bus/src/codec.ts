import type { CloudEvent } from './types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** True for a value with the shape of a CloudEvents 1.0 envelope as this project writes it. */
export function isCloudEvent(value: unknown): value is CloudEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  return (
    e.specversion === '1.0' &&
    typeof e.id === 'string' &&
    e.id.length > 0 &&
    typeof e.type === 'string' &&
    typeof e.source === 'string' &&
    typeof e.subject === 'string' &&
    typeof e.time === 'string' &&
    'data' in e
  );
}

/** The wire form of an event: its JSON envelope, UTF-8. */
export function encodeEvent(event: CloudEvent): Uint8Array {
  return encoder.encode(JSON.stringify(event));
}

/** Parses a wire envelope; null when it is not JSON or not a CloudEvent (such messages are skipped). */
export function decodeEvent(bytes: Uint8Array): CloudEvent | null {
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return isCloudEvent(value) ? value : null;
  } catch {
    return null;
  }
}
