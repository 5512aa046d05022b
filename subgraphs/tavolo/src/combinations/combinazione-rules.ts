import { InputChecks, preferEnglish } from '@coperto/domain';
import { COMBINAZIONE_COVERS, COMBINAZIONE_TABLES } from './combinazione-record.js';
import type { CombinazioneInput } from '../generated/resolvers-types.js';
import type { TavoloRecord } from '../tables/tavolo-record.js';

/** An input with its English/Italian names merged (English wins); undefined = not sent. */
export interface CombinazioneFields {
  nome?: string | null;
  tableIds?: readonly string[] | null;
  capacitaMin?: number | null;
  capacitaMax?: number | null;
  attivo?: boolean | null;
}

export function mergeCombinazioneAliases(input: CombinazioneInput): CombinazioneFields {
  const pick = <T>(english: T | null | undefined, italian: T | null | undefined) =>
    english === undefined && italian === undefined ? undefined : (preferEnglish(english, italian) ?? null);
  return {
    nome: pick(input.name, input.nome),
    tableIds: input.tableIds,
    capacitaMin: pick(input.minCovers, input.capacitaMin),
    capacitaMax: pick(input.maxCovers, input.capacitaMax),
    attivo: input.attivo,
  };
}

/** The checks that need nothing but the input (ranges, nulls, distinct ids); all problems at once. */
export function checkCombinazioneInput(
  fields: CombinazioneFields,
  options: { create: boolean },
): InputChecks {
  const checks = new InputChecks()
    .text('name', fields.nome, { min: 1, max: 100 })
    .intInRange('minCovers', fields.capacitaMin, COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max)
    .intInRange('maxCovers', fields.capacitaMax, COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max);
  const required = { name: fields.nome, tableIds: fields.tableIds, maxCovers: fields.capacitaMax };
  for (const [field, value] of Object.entries(required)) {
    if (value === null || (options.create && value === undefined)) checks.add(field, 'is required');
  }
  if (fields.capacitaMin === null) checks.add('minCovers', 'must not be null');
  if (fields.attivo === null) checks.add('attivo', 'must not be null');
  if (fields.tableIds) {
    const { min, max } = COMBINAZIONE_TABLES;
    if (fields.tableIds.length < min || fields.tableIds.length > max)
      checks.add('tableIds', `must list from ${min} to ${max} tables`);
    if (new Set(fields.tableIds).size !== fields.tableIds.length)
      checks.add('tableIds', 'must not list a table twice');
  }
  return checks;
}

/** A combination as it would be after the write: what the table rules are checked against. */
export interface CombinazioneDraft {
  tableIds: readonly string[];
  capacitaMin: number;
  capacitaMax: number;
  attivo: boolean;
}

/**
 * The rules that need the member tables (pure): every table exists in the tenant, all in one room, active while
 * the combination is active; minCovers <= maxCovers <= the sum of the tables' seats. Returns the room.
 */
export function checkCombinazioneTables(
  draft: CombinazioneDraft,
  tables: readonly TavoloRecord[],
  checks: InputChecks,
): string | null {
  const byId = new Map(tables.map((t) => [t.id, t]));
  if (draft.attivo && draft.tableIds.length < COMBINAZIONE_TABLES.min)
    checks.add('tableIds', `an active combination joins at least ${COMBINAZIONE_TABLES.min} tables`);
  const missing = draft.tableIds.filter((id) => !byId.has(id));
  if (missing.length > 0) checks.add('tableIds', `unknown table(s): ${missing.join(', ')}`);
  const members = draft.tableIds.flatMap((id) => byId.get(id) ?? []);
  const rooms = new Set(members.map((t) => t.salaId));
  const room = members[0]?.salaId ?? null;
  if (members.some((t) => t.salaId === null)) checks.add('tableIds', 'every table must be in a room');
  else if (rooms.size > 1) checks.add('tableIds', 'all tables must be in one room');
  const inactive = members.filter((t) => !t.attivo).map((t) => t.id);
  if (draft.attivo && inactive.length > 0)
    checks.add('tableIds', `inactive table(s): ${inactive.join(', ')}`);
  if (draft.capacitaMin > draft.capacitaMax)
    checks.add('minCovers', `must be at most maxCovers (${draft.capacitaMax})`);
  const seats = members.reduce((sum, t) => sum + t.capacita, 0);
  if (missing.length === 0 && draft.capacitaMax > seats)
    checks.add('maxCovers', `must be at most the tables' seats together (${seats})`);
  return room;
}
