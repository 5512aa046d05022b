import { randomUUID } from 'node:crypto';
import { requireAdmin, type Viewer } from '@coperto/auth';
import { NotFoundError, ValidationError } from '@coperto/errors';
import type { DeliveryQueue } from './delivery/delivery-queue.js';
import { newSecret } from './delivery/signing.js';
import type { DeliveryRecord, DeliveryState, WebhookRecord } from './records.js';
import { rotateSecrets } from './rules/rotation.js';
import { WEBHOOK_LIMITS, webhookFields, type WebhookInput } from './webhook-input.js';
import { deliveryView, webhookView, type WebhookView } from './webhook-view.js';
import type { WebhooksStore } from './webhooks-store.js';

export interface WebhooksServiceDeps {
  store: WebhooksStore;
  queue: DeliveryQueue;
  viewer: Viewer;
  now: () => Date;
  allowPrivate: boolean;
  /** A delivery was queued (a resend): this instance's worker looks at once. */
  onQueued: () => void;
}

/** An administrator's endpoints: create (the secret shown once), read, change, delete, rotate; deliveries, resend. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {
    requireAdmin(deps.viewer, 'manage webhooks');
  }

  async list() {
    return (await this.deps.store.webhooks.find({}, { sort: { createdAt: 1 } })).map((w) => webhookView(w));
  }

  async get(id: string) {
    const found = await this.deps.store.webhooks.findById(id);
    return found ? webhookView(found) : null;
  }

  async create(input: WebhookInput) {
    if (!input.url) throw new ValidationError([{ field: 'url', message: 'is required' }]);
    const fields = await webhookFields(input, this.deps.allowPrivate);
    if ((await this.deps.store.webhooks.count()) >= WEBHOOK_LIMITS.maxEndpoints)
      throw new ValidationError([
        { field: 'url', message: `a tenant has at most ${WEBHOOK_LIMITS.maxEndpoints} webhooks` },
      ]);
    const now = this.deps.now().toISOString();
    const secret = newSecret();
    const record: WebhookRecord = {
      id: randomUUID(),
      url: fields.url!,
      eventi: fields.eventi ?? [],
      attivo: fields.attivo ?? true,
      segreti: [{ secret, creatoIl: now }],
      inErroreDa: null,
      ultimaConsegnaAt: null,
      disattivatoAt: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await this.deps.store.webhooks.insertOne(record);
    return webhookView(record, secret);
  }

  async update(id: string, input: WebhookInput): Promise<WebhookView> {
    const fields = await webhookFields(input, this.deps.allowPrivate);
    const found = await this.deps.store.webhooks.findById(id);
    if (!found) throw new NotFoundError('Webhook', id);
    // Switched on again: the failures that switched it off no longer count.
    const switchedOn =
      fields.attivo === true && !found.attivo ? { inErroreDa: null, disattivatoAt: null } : {};
    const updated = await this.deps.store.webhooks.findOneAndUpdate(
      { id, version: found.version },
      { $set: { ...fields, ...switchedOn, updatedAt: this.deps.now().toISOString() }, $inc: { version: 1 } },
    );
    return updated ? webhookView(updated) : this.update(id, input);
  }

  async remove(id: string) {
    const found = await this.deps.store.webhooks.findById(id);
    if (!found) throw new NotFoundError('Webhook', id);
    await this.deps.store.webhooks.deleteOne({ id });
    // Its deliveries go with it; their queue entries find nothing and are dropped.
    await this.deps.store.deliveries.deleteMany({ webhookId: id });
    return webhookView(found);
  }

  async rotate(id: string): Promise<WebhookView> {
    const found = await this.deps.store.webhooks.findById(id);
    if (!found) throw new NotFoundError('Webhook', id);
    const now = this.deps.now();
    const secret = newSecret();
    const updated = await this.deps.store.webhooks.findOneAndUpdate(
      { id, version: found.version },
      {
        $set: { segreti: rotateSecrets(found.segreti, secret, now), updatedAt: now.toISOString() },
        $inc: { version: 1 },
      },
    );
    if (!updated) return this.rotate(id);
    return webhookView(updated, secret);
  }

  async deliveries(id: string, options: { stato?: DeliveryState | null; limite?: number | null }) {
    if (!(await this.deps.store.webhooks.findById(id))) return null;
    const limit = options.limite ?? WEBHOOK_LIMITS.deliveriesDefault;
    if (!Number.isInteger(limit) || limit < 1 || limit > WEBHOOK_LIMITS.deliveriesMax)
      throw new ValidationError([{ field: 'limite', message: `must be 1..${WEBHOOK_LIMITS.deliveriesMax}` }]);
    const found = await this.deps.store.deliveries.find(
      { webhookId: id, ...(options.stato ? { stato: options.stato } : {}) },
      { sort: { createdAt: -1 }, limit },
    );
    return found.map(deliveryView);
  }

  /** Sends a delivery again at once, whatever its state: a new series of attempts on the retry schedule. */
  async resend(id: string, consegnaId: string): Promise<ReturnType<typeof deliveryView>> {
    const delivery = await this.deps.store.deliveries.findById(consegnaId);
    if (!delivery || delivery.webhookId !== id) throw new NotFoundError('Consegna', consegnaId);
    const now = this.deps.now().toISOString();
    const updated: DeliveryRecord | null = await this.deps.store.deliveries.findOneAndUpdate(
      { id: consegnaId, version: delivery.version },
      {
        $set: {
          stato: 'in_attesa',
          inizioSerie: delivery.tentativi.length,
          prossimoTentativoAt: now,
          updatedAt: now,
        },
        $inc: { version: 1 },
      },
    );
    if (!updated) return this.resend(id, consegnaId);
    await this.deps.queue.enqueue(this.deps.store.tenantId, consegnaId, id, new Date(now));
    this.deps.onQueued();
    return deliveryView(updated);
  }
}
