import { AppError } from '@coperto/errors';
import { codePointsAtLeast, InputChecks } from '@coperto/domain';
import { normalizeEmail, normalizePhone } from './contacts.js';
import type { OspitePatch } from './generated/resolvers-types.js';
import { GUEST_LIMITS, LANGUAGE_PATTERN } from './guest-limits.js';
import type { OspiteRecord } from './ospite-record.js';

/** The profile fields staff may set, with their stored (Italian) names. */
export interface GuestChanges {
  nome?: string | null;
  telefono?: string | null;
  email?: string | null;
  lingua?: string | null;
  tag?: string[];
  allergie?: string[];
  note?: string | null;
  consensoMarketing?: boolean;
}

const LANGUAGE = new RegExp(LANGUAGE_PATTERN);
const MAX_LABELS = GUEST_LIMITS.labelsMaxItems;

/** English wins over Italian; a field sent as null (and not the other name with a value) clears it. */
function pick<K extends keyof OspitePatch>(
  patch: OspitePatch,
  english: K,
  italian: K,
): OspitePatch[K] | undefined {
  if (patch[english] != null) return patch[english];
  if (patch[italian] != null) return patch[italian];
  return patch[english] === null || patch[italian] === null ? null : undefined;
}

/** The patch validated (every bad field named at once) and normalised: phone to E.164, email lower-cased. */
export function guestChanges(patch: OspitePatch, country: string): GuestChanges {
  const checks = new InputChecks();
  const nome = pick(patch, 'name', 'nome');
  const telefono = pick(patch, 'phone', 'telefono');
  const email = pick(patch, 'email', 'email');
  const lingua = pick(patch, 'language', 'lingua');
  const tag = pick(patch, 'tags', 'tag');
  const allergie = pick(patch, 'allergies', 'allergie');
  const note = pick(patch, 'notes', 'note');
  const consenso = pick(patch, 'marketingConsent', 'consensoMarketing');
  checks
    .text('nome', nome, { min: 1, max: GUEST_LIMITS.nameMaxLength })
    .text('note', note, { max: GUEST_LIMITS.notesMaxLength });
  const phone = telefono ? normalizePhone(telefono, country) : telefono;
  if (telefono && !phone) checks.add('telefono', 'must be a valid phone number');
  const mail = email ? normalizeEmail(email) : email;
  if (email && !mail) checks.add('email', 'must be an email address');
  if (lingua && !LANGUAGE.test(lingua)) checks.add('lingua', 'must be a language tag such as it or en');
  const labels = (field: string, values: readonly string[] | null | undefined) => {
    if (values === null) checks.add(field, 'must be a list (empty to clear)');
    if (!values) return undefined;
    if (values.length > MAX_LABELS) checks.add(field, `must have at most ${MAX_LABELS} entries`);
    if (values.some((v) => v.trim() === '' || codePointsAtLeast(v, GUEST_LIMITS.labelMaxLength + 1)))
      checks.add(field, `entries must have 1 to ${GUEST_LIMITS.labelMaxLength} characters`);
    return [...new Set(values.map((v) => v.trim()))];
  };
  const tags = labels('tag', tag);
  const allergies = labels('allergie', allergie);
  if (consenso === null) checks.add('consensoMarketing', 'must be true or false');
  checks.throwIfAny();
  return {
    ...(nome !== undefined ? { nome: nome?.trim() ?? null } : {}),
    ...(phone !== undefined ? { telefono: phone } : {}),
    ...(mail !== undefined ? { email: mail } : {}),
    ...(lingua !== undefined ? { lingua } : {}),
    ...(tags ? { tag: tags } : {}),
    ...(allergies ? { allergie: allergies } : {}),
    ...(note !== undefined ? { note: note?.trim() || null } : {}),
    ...(consenso != null ? { consensoMarketing: consenso } : {}),
  };
}

/** 409: an erased guest's personal data is never set again (it would come back). */
export function refuseErased(guest: OspiteRecord): void {
  if (guest.cancellato)
    throw new AppError('INVALID_TRANSITION', `Guest ${guest.id} was erased: its profile cannot be changed`, {
      id: guest.id,
      cancellato: true,
    });
}
