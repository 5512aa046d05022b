import { trustedTenantId } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import type { EventConsumer } from '@coperto/server-kit';
import { DuplicateKeyError, type DocumentStore } from '@coperto/store';
import { wantsEvent } from '../event-types.js';
import type { DeliveryRecord } from '../records.js';
import { deliveryId, WebhooksStore } from '../webhooks-store.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { createRetentionSweeper } from './retention-sweep.js';

/** The durable consumer's name: every webhooks instance shares it (each event is taken in by one of them). */
export const WEBHOOKS_CONSUMER = 'webhooks';

/** A new delivery of `event` to an endpoint, due at once. */
export function newDelivery(webhookId: string, event: CloudEvent, now: Date): DeliveryRecord {
  const at = now.toISOString();
  return {
    id: deliveryId(webhookId, event.id),
    webhookId,
    eventoId: event.id,
    tipo: event.type,
    corpo: JSON.stringify(event),
    stato: 'in_attesa',
    tentativi: [],
    inizioSerie: 0,
    prossimoTentativoAt: at,
    consegnataAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/**
 * Takes every restaurant event in: one delivery per active endpoint of its tenant that asked for its type, then
 * a queue entry for it; and, at most hourly, removes the tenant's finished deliveries past the retention period. The handler resolves (and the bus forgets the event) only after both are stored, so an
 * event is never lost to a crash; taken in again (at least once), it finds the same delivery id and adds nothing.
 */
export function webhookIntake(
  store: DocumentStore,
  queue: DeliveryQueue,
  now: () => Date,
  onQueued: () => void,
  onError: (error: unknown) => void = () => {},
): EventConsumer {
  const retention = createRetentionSweeper(now, onError);
  return {
    durable: WEBHOOKS_CONSUMER,
    subject: 'tenant.*.restaurant.>',
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      if (!tenant) return;
      const tenantStore = new WebhooksStore(store, trustedTenantId(tenant));
      const endpoints = (await tenantStore.webhooks.find({ attivo: true })).filter((w) =>
        wantsEvent(w.eventi, event.type),
      );
      if (endpoints.length === 0) return;
      retention.maybeSweep(tenantStore);
      // The endpoints' deliveries are independent: stored side by side (one event to 50 endpoints costs two
      // round trips, not a hundred); the handler resolves only once every one is queued.
      await Promise.all(
        endpoints.map((endpoint) => takeIn(tenantStore, queue, tenant, endpoint.id, event, now())),
      );
      onQueued();
    },
  };
}

/** Stores the delivery of `event` to one endpoint (once, however often the event comes) and queues it if still due. */
async function takeIn(
  tenantStore: WebhooksStore,
  queue: DeliveryQueue,
  tenant: string,
  webhookId: string,
  event: CloudEvent,
  now: Date,
): Promise<void> {
  const fresh = newDelivery(webhookId, event, now);
  let delivery: DeliveryRecord | null = fresh;
  try {
    await tenantStore.deliveries.insertOne(fresh);
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    delivery = await tenantStore.deliveries.findById(fresh.id);
  }
  if (delivery?.stato === 'in_attesa')
    await queue.enqueue(
      tenant,
      delivery.id,
      webhookId,
      new Date(delivery.prossimoTentativoAt ?? fresh.createdAt),
    );
}
