import { createHash } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { DocumentStore, TenantCollection } from '@coperto/store';
import type { DeliveryRecord, WebhookRecord } from './records.js';

export const WEBHOOKS = 'webhooks';
export const DELIVERIES = 'webhooks_consegne';

/** The one delivery of an event to an endpoint: the same id however often the event arrives. */
export function deliveryId(webhookId: string, eventId: string): string {
  return createHash('sha256').update(`${webhookId}\n${eventId}`).digest('base64url').slice(0, 22);
}

/** A tenant's endpoints and deliveries. */
export class WebhooksStore {
  readonly webhooks: TenantCollection<WebhookRecord>;
  readonly deliveries: TenantCollection<DeliveryRecord>;
  constructor(
    store: DocumentStore,
    readonly tenantId: TenantId,
  ) {
    const tenant = store.forTenant(tenantId);
    this.webhooks = tenant.collection<WebhookRecord>(WEBHOOKS);
    this.deliveries = tenant.collection<DeliveryRecord>(DELIVERIES);
  }
}

export async function ensureWebhooksIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(WEBHOOKS, [{ name: 'createdAt', fields: { createdAt: 1 } }]);
  await store.ensureIndexes(DELIVERIES, [{ name: 'webhookId', fields: { webhookId: 1, createdAt: -1 } }]);
}
