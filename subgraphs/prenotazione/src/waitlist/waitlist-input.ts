import { InputChecks, preferEnglish } from '@coperto/domain';
import { InvalidTransitionError } from '@coperto/errors';
import type {
  AnnullaAttesaInput,
  SiediAttesaInput,
  StatoAttesa,
  VoceAttesaInput,
} from '../generated/resolvers-types.js';
import { checkTableIds } from '../bookings/prenotazione-input.js';

/**
 * A party at the host stand: a name to call (1..200 characters), its covers (1..1000, as a booking's), an
 * optional phone to text when the table is ready (up to 50) and notes (up to 2000: high chair, terrace…).
 * English wins over Italian. The limits are a booking's, because seating the party creates one.
 */
export function checkVoceAttesa(input: VoceAttesaInput) {
  const customerName = preferEnglish(input.customerName, input.cliente);
  const covers = preferEnglish(input.covers, input.numeroPersone);
  new InputChecks()
    .required('customerName', customerName)
    .required('covers', covers)
    .text('customerName', customerName, { min: 1, max: 200 })
    .intInRange('covers', covers, 1, 1000)
    .text('customerPhone', input.customerPhone, { max: 50 })
    .text('notes', input.notes, { max: 2000 })
    .throwIfAny();
  return {
    customerName: customerName!.trim(),
    covers: covers!,
    customerPhone: input.customerPhone?.trim() || null,
    notes: input.notes?.trim() || null,
  };
}

/** What the host asked for: these tables, this combination, or (neither) the suggested fit. */
export type SeatingChoice =
  | { kind: 'tables'; tableIds: string[] }
  | { kind: 'combination'; combinationId: string }
  | { kind: 'suggested' };

export function checkSiediAttesa(input: SiediAttesaInput | null | undefined): SeatingChoice {
  const tableIds = input?.tableIds ?? null;
  const combinationId = input?.combinationId ?? null;
  const checks = new InputChecks();
  if (tableIds && combinationId !== null)
    checks.add('combinationId', 'give tableIds or combinationId, not both');
  if (tableIds) {
    if (tableIds.length === 0) checks.add('tableIds', 'must name at least one table');
    checkTableIds(checks, tableIds);
  }
  if (combinationId !== null && combinationId.trim() === '') checks.add('combinationId', 'must not be empty');
  checks.throwIfAny();
  if (tableIds) return { kind: 'tables', tableIds: [...tableIds] };
  if (combinationId !== null) return { kind: 'combination', combinationId };
  return { kind: 'suggested' };
}

/** annulla: `left` (the party went away) or `cancelled` (default), with an optional reason (up to 500). */
export function checkAnnullaAttesa(input: AnnullaAttesaInput | null | undefined): {
  state: Extract<StatoAttesa, 'left' | 'cancelled'>;
  motivo: string | null;
} {
  const state = input?.state ?? 'cancelled';
  const checks = new InputChecks().text('motivo', input?.motivo, { max: 500 });
  if (state !== 'left' && state !== 'cancelled') checks.add('state', 'must be left or cancelled');
  checks.throwIfAny();
  return { state: state as 'left' | 'cancelled', motivo: input?.motivo?.trim() || null };
}

/** A siedi naming other tables (or another combination) than the seating already made or in progress: 409. */
export function refuseOtherTables(
  seated: { tableIds: readonly string[]; combinationId: string | null },
  choice: SeatingChoice,
): void {
  const same =
    choice.kind === 'suggested' ||
    (choice.kind === 'combination' && choice.combinationId === seated.combinationId) ||
    (choice.kind === 'tables' && [...choice.tableIds].sort().join() === [...seated.tableIds].sort().join());
  if (!same) throw new InvalidTransitionError('seated', 'seated on other tables');
}
