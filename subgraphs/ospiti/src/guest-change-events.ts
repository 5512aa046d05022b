import type { TenantId } from '@coperto/auth';
import { buildEvent, type GuestEventType } from '@coperto/bus';
import type { OutboxMessage } from '@coperto/store';
import type { OspiteRecord } from './ospite-record.js';

/** CloudEvents `source` of every event this subgraph writes. */
const EVENT_SOURCE = 'coperto/ospiti';

/** The guest's fields as the API shows them, Italian name to English name: what an event's `campi` lists. */
export const GUEST_API_FIELDS = {
  nome: 'name',
  telefono: 'phone',
  email: 'email',
  lingua: 'language',
  tag: 'tags',
  allergie: 'allergies',
  note: 'notes',
  consensoMarketing: 'marketingConsent',
  visite: 'visits',
  coperti: 'covers',
  noShow: 'noShows',
  annullamentiTardivi: 'lateCancellations',
  primaVisita: 'firstVisit',
  ultimaVisita: 'lastVisit',
  spesaTotale: 'totalSpend',
  cancellato: 'erased',
  cancellatoAt: 'erasedAt',
} as const satisfies Partial<Record<keyof OspiteRecord, string>>;

type ApiField = keyof typeof GUEST_API_FIELDS;
const API_FIELDS = Object.keys(GUEST_API_FIELDS) as ApiField[];

/** A value a new guest has: not null, false, 0 or an empty list. */
const hasValue = (value: unknown) =>
  value !== null &&
  value !== undefined &&
  value !== false &&
  value !== 0 &&
  !(Array.isArray(value) && !value.length);

/** The API fields whose value differs between `before` and `after` (a new guest: those that have a value). */
export function changedFields(before: OspiteRecord | null, after: OspiteRecord): ApiField[] {
  if (!before) return API_FIELDS.filter((field) => hasValue(after[field]));
  return API_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * What a write of a guest publishes: `guests.created` (a new guest), `guests.erased` (the oblio, or retention),
 * `guests.merged` (another guest went into this one), `guests.updated` (any other change of a field the API
 * shows: an edit, a contact or name filled in by linking, a count); null when only internal fields changed
 * (the guest being frozen for a merge, its last activity).
 */
export function guestEventType(before: OspiteRecord | null, after: OspiteRecord): GuestEventType | null {
  if (!before) return 'guests.created';
  if (after.cancellato && !before.cancellato) return 'guests.erased';
  if (mergedFrom(before, after)) return 'guests.merged';
  return changedFields(before, after).length > 0 ? 'guests.updated' : null;
}

/** The guest merged into `after` by this write (the first of the ids it added to `unitiDa`), or null. */
function mergedFrom(before: OspiteRecord, after: OspiteRecord): string | null {
  return after.unitiDa.find((id) => !before.unitiDa.includes(id)) ?? null;
}

/**
 * An event's `data` (the subscription schema's `CambioOspite`): the guest's id, which fields changed (names, never
 * values), its counts and whether it is erased; no name, phone, email, language, notes, tags, allergies or
 * consent, which an integration reads with a staff token (`GET /api/ospiti/<id>`). So no event, kept in the stream
 * or by an endpoint, holds what an erasure later removes.
 */
export function guestEventData(before: OspiteRecord | null, after: OspiteRecord) {
  const campi = changedFields(before, after);
  const unitoDa = before ? mergedFrom(before, after) : null;
  return {
    id: after.id,
    campi,
    fields: campi.map((field) => GUEST_API_FIELDS[field]),
    unitoDa,
    mergedFrom: unitoDa,
    visite: after.visite,
    visits: after.visite,
    coperti: after.coperti,
    covers: after.coperti,
    noShow: after.noShow,
    noShows: after.noShow,
    annullamentiTardivi: after.annullamentiTardivi,
    lateCancellations: after.annullamentiTardivi,
    primaVisita: after.primaVisita,
    firstVisit: after.primaVisita,
    ultimaVisita: after.ultimaVisita,
    lastVisit: after.ultimaVisita,
    spesaTotale: after.spesaTotale,
    totalSpend: after.spesaTotale,
    cancellato: after.cancellato,
    erased: after.cancellato,
    cancellatoAt: after.cancellatoAt,
    erasedAt: after.cancellatoAt,
    createdAt: after.createdAt,
    updatedAt: after.updatedAt,
  };
}

/** The event a write of the guest stores in its outbox (none when it changed nothing the API shows). */
export function guestChangeEvents(
  tenantId: TenantId,
  before: OspiteRecord | null,
  after: OspiteRecord,
): OutboxMessage[] {
  const type = guestEventType(before, after);
  if (!type) return [];
  const { message } = buildEvent({
    tenantId,
    type,
    source: EVENT_SOURCE,
    subject: after.id,
    time: after.updatedAt,
    data: guestEventData(before, after),
  });
  return [message];
}
