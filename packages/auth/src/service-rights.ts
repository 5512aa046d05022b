import type { ServiceRole } from './service-grant.js';
import type { Viewer } from './viewer.js';

/**
 * What a service token may do, as the GraphQL root fields it may select (`Query.x`, `Mutation.y`): the decisions'
 * section "Guests book for themselves". Everything else is 403 FORBIDDEN for it, through REST and /graphql alike
 * (the gateway checks each operation against this table), and it never subscribes. Which booking, option and
 * fields within these is each service's to check (its own booking only, no tableIds from a channel …).
 */
// A field joins its role's list only together with the checks its service makes for that role (deny until enforced).
export const SERVICE_ROLE_FIELDS: Readonly<Record<ServiceRole, ReadonlySet<string>>> = {
  channel: new Set([
    'Query.canaleCorrente',
    'Query.disponibilita',
    'Query.disponibilitaPerCoperti',
    'Mutation.createOpzione',
    'Mutation.releaseOpzione',
    'Mutation.createPrenotazione',
  ]),
  guest: new Set([
    'Query.prenotazione',
    'Mutation.confermaPrenotazione',
    'Mutation.annullaPrenotazione',
    'Mutation.updatePrenotazione',
  ]),
  payments: new Set(['Mutation.eventoStripe']),
  // Nothing public: it reaches canali's Google records through canali's own port (inaccessible fields).
  google: new Set(),
  // Nothing public: ospiti calls prenotazione's cancellaDatiOspite on its port (subgraph to subgraph).
  privacy: new Set(),
};

/**
 * The root fields of `fields` (as `Type.field`) the viewer may not select; empty when it may select them all.
 * Staff and administrators are not limited here (administrator-only fields check `requireAdmin` themselves).
 * `__typename` is harmless; introspection (`__schema`, `__type`) is refused to a service token.
 */
export function forbiddenRootFields(viewer: Viewer, fields: readonly string[]): string[] {
  const { grant } = viewer;
  if (grant === undefined) return [];
  const allowed = SERVICE_ROLE_FIELDS[grant.role];
  return fields.filter((field) => !field.endsWith('.__typename') && !allowed.has(field));
}
