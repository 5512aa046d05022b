import {
  EMAIL_MAX_LENGTH,
  InputChecks,
  isEmailAddress,
  localDateOf,
  parseRestaurantDateTime,
  preferEnglish,
  zoneOffsetMinutes,
} from '@coperto/domain';
import type { PrenotazionePatch } from '../generated/resolvers-types.js';
import { DEFAULT_LINGUA, type PrenotazioneRecord } from './prenotazione-record.js';

/** A validated booking date: the local wall clock, the instant and the local date. */
export interface BookingMoment {
  local: string;
  startsAt: string;
  localDate: string;
}

export const MAX_TABLES_PER_BOOKING = 20;
export const MAX_DURATION_MINUTES = 720;

/** English wins over Italian; both are then stored. */
export function mergeAliases(input: PrenotazionePatch) {
  return {
    covers: preferEnglish(input.covers, input.numeroPersone),
    bookingDate: preferEnglish(input.bookingDate, input.dataOra),
    customerName: preferEnglish(input.customerName, input.cliente),
    lingua: preferEnglish(input.language, input.lingua),
  };
}

/** An email address trimmed and lower-cased; null when absent or blank. */
export function normalizedEmail(raw: string | null | undefined): string | null {
  return raw?.trim().toLowerCase() || null;
}

/** A new booking's guest contact and language (create and booking from an option). */
export function guestFields(input: PrenotazionePatch) {
  return {
    customerPhone: input.customerPhone?.trim() || null,
    customerEmail: normalizedEmail(input.customerEmail),
    lingua: mergeAliases(input).lingua ?? DEFAULT_LINGUA,
  };
}

/** Reads a booking date in the restaurant's zone (an explicit offset or Z is converted). */
export function bookingMoment(text: string, zone: string): BookingMoment | null {
  const instant = parseRestaurantDateTime(text, zone);
  if (!instant) return null;
  const offset = zoneOffsetMinutes(instant.getTime(), zone);
  const local = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return { local, startsAt: instant.toISOString(), localDate: localDateOf(instant, zone) };
}

/** Field checks shared by create and update; `required` on create. Returns the parsed moment when given. */
export function checkPrenotazione(
  input: PrenotazionePatch & { externalId?: string | null },
  options: { required: boolean; zone: string },
): BookingMoment | undefined {
  const merged = mergeAliases(input);
  const checks = new InputChecks();
  if (options.required) {
    checks
      .required('covers', merged.covers)
      .required('bookingDate', merged.bookingDate)
      .required('customerName', merged.customerName);
  } else {
    if (input.covers === null && input.numeroPersone === null) checks.add('covers', 'must not be null');
    if (input.bookingDate === null && input.dataOra === null) checks.add('bookingDate', 'must not be null');
    if (input.customerName === null && input.cliente === null) checks.add('customerName', 'must not be null');
    if ((input.lingua === null || input.language === null) && merged.lingua == null) {
      checks.add('lingua', 'must not be null');
    }
  }
  const email = normalizedEmail(input.customerEmail);
  if (email && !isEmailAddress(email)) checks.add('customerEmail', 'must be an email address');
  checks
    .intInRange('covers', merged.covers, 1, 1000)
    .text('customerName', merged.customerName, { min: 1, max: 200 })
    .text('customerPhone', input.customerPhone, { max: 50 })
    .text('customerEmail', input.customerEmail, { max: EMAIL_MAX_LENGTH })
    .text('notes', input.notes, { max: 2000 })
    .intInRange('durationMinutes', input.durationMinutes, 1, MAX_DURATION_MINUTES)
    .text('externalId', input.externalId, { min: 1, max: 200 });
  if (input.tableIds) checkTableIds(checks, input.tableIds);
  checkPlacement(checks, input);
  let moment: BookingMoment | undefined;
  if (merged.bookingDate != null) {
    moment = bookingMoment(merged.bookingDate, options.zone) ?? undefined;
    if (!moment) checks.add('bookingDate', 'must be an ISO 8601 date-time');
  }
  checks.throwIfAny();
  return moment;
}

/** A list of tables a party asks for (a booking's or an option's): at most 20, no repeats, no empty ids. */
export function checkTableIds(checks: InputChecks, tableIds: readonly string[]): void {
  if (tableIds.length > MAX_TABLES_PER_BOOKING) {
    checks.add('tableIds', `must have at most ${MAX_TABLES_PER_BOOKING} tables`);
  }
  if (new Set(tableIds).size !== tableIds.length) checks.add('tableIds', 'must not repeat a table');
  if (tableIds.some((id) => id.trim() === '')) checks.add('tableIds', 'must not contain empty ids');
}

/**
 * The record fields a patch sets, both name forms (English wins). A table list makes the placement manual
 * and forgets the combination; a combinationId is resolved by the service (it needs tavolo).
 */
export function patchedFields(
  patch: PrenotazionePatch,
  moment: BookingMoment | undefined,
): Partial<PrenotazioneRecord> {
  const merged = mergeAliases(patch);
  return {
    ...(merged.covers != null ? { covers: merged.covers, numeroPersone: merged.covers } : {}),
    ...(moment
      ? {
          bookingDate: moment.local,
          dataOra: moment.local,
          startsAt: moment.startsAt,
          localDate: moment.localDate,
        }
      : {}),
    ...(merged.customerName != null
      ? { customerName: merged.customerName.trim(), cliente: merged.customerName.trim() }
      : {}),
    ...(patch.customerPhone !== undefined ? { customerPhone: patch.customerPhone?.trim() || null } : {}),
    ...(patch.customerEmail !== undefined ? { customerEmail: normalizedEmail(patch.customerEmail) } : {}),
    ...(merged.lingua != null ? { lingua: merged.lingua } : {}),
    ...(patch.notes !== undefined ? { notes: patch.notes ?? null } : {}),
    ...(patch.durationMinutes !== undefined ? { durationMinutes: patch.durationMinutes ?? null } : {}),
    ...(patch.tableIds != null
      ? { tableIds: [...patch.tableIds], combinationId: null, assegnazione: 'manual' as const }
      : {}),
  };
}

/** What decides a party's tables: at most one of tableIds, combinationId and autoAssign: true. */
export function checkPlacement(
  checks: InputChecks,
  input: { tableIds?: readonly string[] | null; combinationId?: string | null; autoAssign?: boolean | null },
): void {
  checks.text('combinationId', input.combinationId, { min: 1, max: 200 });
  const given = [
    input.tableIds != null ? 'tableIds' : null,
    input.combinationId != null ? 'combinationId' : null,
    input.autoAssign === true ? 'autoAssign' : null,
  ].filter((name) => name !== null);
  if (given.length > 1) {
    checks.add(given[1]!, `at most one of tableIds, combinationId and autoAssign (got ${given.join(', ')})`);
  }
}
