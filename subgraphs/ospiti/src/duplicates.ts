import type { OspiteRecord } from './ospite-record.js';
import { foldText } from './search-keys.js';

export type DuplicateField = 'nome' | 'telefono' | 'email';

export interface DuplicatePair {
  a: OspiteRecord;
  b: OspiteRecord;
  campi: DuplicateField[];
}

export const MAX_DUPLICATE_PAIRS = 200;

const FIELDS: readonly DuplicateField[] = ['nome', 'telefono', 'email'];

function valueOf(guest: OspiteRecord, field: DuplicateField): string | null {
  const value = guest[field];
  if (!value) return null;
  return field === 'nome' ? foldText(value).replace(/\s+/g, ' ').trim() : value;
}

/**
 * Pairs of guests sharing at least two of name (compared without case, accents or extra spaces), phone and
 * email, the older guest first in each pair, pairs in order of their guests' creation. Two of the three
 * always include the phone or the email, so only guests sharing one of those are compared: a common name
 * costs nothing.
 */
export function duplicatePairs(guests: readonly OspiteRecord[]): DuplicatePair[] {
  const byContact = new Map<string, OspiteRecord[]>();
  for (const guest of guests) {
    for (const field of ['telefono', 'email'] as const) {
      const value = valueOf(guest, field);
      if (value !== null)
        byContact.set(`${field}:${value}`, [...(byContact.get(`${field}:${value}`) ?? []), guest]);
    }
  }
  const pairs = new Map<string, DuplicatePair>();
  for (const group of byContact.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = order(group[i]!, group[j]!);
        const campi = FIELDS.filter((field) => {
          const value = valueOf(a, field);
          return value !== null && value === valueOf(b, field);
        });
        if (campi.length >= 2) pairs.set(`${a.id}:${b.id}`, { a, b, campi });
      }
    }
  }
  return [...pairs.values()]
    .sort((x, y) => compare(x.a, y.a) || compare(x.b, y.b))
    .slice(0, MAX_DUPLICATE_PAIRS);
}

function compare(a: OspiteRecord, b: OspiteRecord): number {
  return a.createdAt < b.createdAt
    ? -1
    : a.createdAt > b.createdAt
      ? 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0;
}

function order(a: OspiteRecord, b: OspiteRecord): [OspiteRecord, OspiteRecord] {
  return compare(a, b) <= 0 ? [a, b] : [b, a];
}
