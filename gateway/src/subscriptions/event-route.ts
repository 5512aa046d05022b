import { subjectTypeOf, type CloudEvent } from '@coperto/bus';

/** Where an event goes: the tenant and event type of the NATS subject it arrived on. */
export type EventRoute =
  | { ok: true; subject: string; tenantId: string; type: string }
  | { ok: false; reason: 'no-subject' | 'bad-subject' | 'tenant-mismatch' | 'type-mismatch' };

/**
 * Routes an event by the subject it arrived on (`tenant.<tenantId>.restaurant.<type>`), which NATS
 * permissions can restrict per publisher, never by what its body says. The envelope must agree with the
 * subject: its `tenantid`, its `type` (published on that subject: see subjectTypeOf), and `data.tenantId` when the data carries one. An event that disagrees
 * (e.g. published on tenant A's subject, claiming tenant B) is routed nowhere: delivering it to A would hand A
 * a record that says it is B's, delivering it to B would let whoever may publish on A write into B. Pure.
 */
export function routeEvent(subject: string | undefined, event: CloudEvent): EventRoute {
  if (subject === undefined) return { ok: false, reason: 'no-subject' };
  const tokens = subject.split('.');
  const [head, tenantId, restaurant, ...typeTokens] = tokens;
  if (head !== 'tenant' || !tenantId || restaurant !== 'restaurant' || typeTokens.length === 0)
    return { ok: false, reason: 'bad-subject' };
  const type = typeTokens.join('.');
  if (event.tenantid !== tenantId) return { ok: false, reason: 'tenant-mismatch' };
  const dataTenant = tenantOfData(event.data);
  if (dataTenant !== undefined && dataTenant !== tenantId) return { ok: false, reason: 'tenant-mismatch' };
  if (subjectTypeOf(event.type) !== type) return { ok: false, reason: 'type-mismatch' };
  return { ok: true, subject, tenantId, type };
}

function tenantOfData(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return undefined;
  return (data as { tenantId?: unknown }).tenantId;
}
