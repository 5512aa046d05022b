import { coerceInputValue } from 'graphql';
import type { FieldIssue } from '@coperto/errors';
import { PRENOTAZIONE_INPUT_FIELDS, prenotazioneInputType } from './prenotazione-input.js';

/** An item ready to be sent to prenotazione, or the type problems that keep it from being sent. */
export type PreparedItem =
  | { ok: true; input: Record<string, unknown>; externalId: string | null }
  | { ok: false; issues: FieldIssue[] };

/**
 * Checks one batch item against prenotazione's input type (pure). Unknown fields are dropped; a wrong type
 * or an unknown state is an issue naming the field (`covers`, `tableIds.2`, …). The rules (required fields,
 * ranges, dates, existing tables) are prenotazione's, applied when the item is created.
 */
export function prepareItem(item: unknown): PreparedItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return { ok: false, issues: [{ field: 'item', message: 'must be a JSON object' }] };
  }
  const known: Record<string, unknown> = {};
  for (const field of PRENOTAZIONE_INPUT_FIELDS) {
    if (Object.hasOwn(item, field)) known[field] = (item as Record<string, unknown>)[field];
  }
  const issues: FieldIssue[] = [];
  const input = coerceInputValue(known, prenotazioneInputType, (path, _value, error) => {
    issues.push({ field: path.length > 0 ? path.join('.') : 'item', message: error.message });
  }) as Record<string, unknown>;
  if (issues.length > 0) return { ok: false, issues };
  const externalId = typeof input.externalId === 'string' ? input.externalId : null;
  return { ok: true, input: known, externalId };
}
