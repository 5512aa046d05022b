import type { DeliveryRecord, WebhookRecord } from './records.js';

/** An endpoint as callers see it (GraphQL `Webhook`, the `webhooks.disabled` event): never its secrets. */
export function webhookView(record: WebhookRecord, secret?: string) {
  return {
    id: record.id,
    url: record.url,
    eventi: record.eventi,
    events: record.eventi,
    attivo: record.attivo,
    active: record.attivo,
    inErroreDa: record.inErroreDa,
    failingSince: record.inErroreDa,
    ultimaConsegnaAt: record.ultimaConsegnaAt,
    lastDeliveredAt: record.ultimaConsegnaAt,
    disattivatoAt: record.disattivatoAt,
    disabledAt: record.disattivatoAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(secret === undefined ? {} : { secret }),
  };
}

export type WebhookView = ReturnType<typeof webhookView>;

/** A delivery and its attempts as an administrator reads them (GraphQL `ConsegnaWebhook`). */
export function deliveryView(record: DeliveryRecord) {
  return {
    id: record.id,
    webhookId: record.webhookId,
    eventoId: record.eventoId,
    eventId: record.eventoId,
    tipo: record.tipo,
    type: record.tipo,
    stato: record.stato,
    state: record.stato,
    prossimoTentativoAt: record.prossimoTentativoAt,
    nextAttemptAt: record.prossimoTentativoAt,
    consegnataAt: record.consegnataAt,
    deliveredAt: record.consegnataAt,
    createdAt: record.createdAt,
    tentativi: attempts(record),
    attempts: attempts(record),
  };
}

function attempts(record: DeliveryRecord) {
  return record.tentativi.map((a) => ({
    at: a.at,
    statusCode: a.statusCode,
    durataMs: a.durataMs,
    durationMs: a.durataMs,
    errore: a.errore,
    error: a.errore,
    prossimoTentativoAt: a.prossimoTentativoAt,
    nextAttemptAt: a.prossimoTentativoAt,
  }));
}
export type DeliveryView = ReturnType<typeof deliveryView>;
