import { buildEvent } from '@coperto/bus';
import type { DocumentStore } from '@coperto/store';
import type { DeliveryRecord, WebhookRecord } from '../records.js';
import { afterAttempt, isDelivered } from '../rules/attempt-outcome.js';
import { shouldDisable } from '../rules/disabling.js';
import { signingSecrets } from '../rules/rotation.js';
import { webhookView } from '../webhook-view.js';
import { WebhooksStore } from '../webhooks-store.js';
import type { ClaimedEntry, DeliveryQueue } from './delivery-queue.js';
import type { AttemptResult, Sender } from './sender.js';
import { signedHeaders } from './signing.js';

export interface DeliverDeps {
  store: DocumentStore;
  queue: DeliveryQueue;
  sender: Sender;
  now: () => Date;
  /** Waits between attempts (default: the Standard Webhooks schedule). */
  waits?: readonly number[];
  /** Wakes the outbox relay after an endpoint was switched off (its event is in the outbox). */
  onEventsWritten: () => void;
}

/**
 * Works one claimed queue entry: the delivery record says what is due. At most one attempt, then the entry is set
 * from the record again (due next, or dropped), so a resend asked for meanwhile is never lost.
 */
export async function deliverOne(deps: DeliverDeps, entry: ClaimedEntry): Promise<void> {
  const tenant = new WebhooksStore(deps.store, entry.tenantId);
  // Both reads at once: the entry names the endpoint.
  const [delivery, endpoint] = await Promise.all([
    tenant.deliveries.findById(entry.consegnaId),
    tenant.webhooks.findById(entry.webhookId),
  ]);
  let after: DeliveryRecord | null = delivery;
  if (delivery && isDue(delivery, deps.now())) {
    after = !endpoint?.attivo
      ? await giveUp(tenant, delivery, endpoint ? 'endpoint switched off' : 'endpoint deleted', deps.now())
      : await attempt(deps, tenant, endpoint, delivery);
    // Changed by someone else meanwhile (a resend): read what it is now.
    after ??= await tenant.deliveries.findById(entry.consegnaId);
  }
  await settle(deps.queue, entry, after);
}

function isDue(delivery: DeliveryRecord, now: Date): boolean {
  return delivery.stato === 'in_attesa' && (delivery.prossimoTentativoAt ?? '') <= now.toISOString();
}

async function settle(
  queue: DeliveryQueue,
  entry: ClaimedEntry,
  delivery: DeliveryRecord | null,
): Promise<void> {
  if (delivery?.stato === 'in_attesa' && delivery.prossimoTentativoAt)
    await queue.reschedule(entry, delivery.prossimoTentativoAt);
  else await queue.remove(entry);
}

async function attempt(
  deps: DeliverDeps,
  tenant: WebhooksStore,
  endpoint: WebhookRecord,
  delivery: DeliveryRecord,
): Promise<DeliveryRecord | null> {
  const at = deps.now();
  const secrets = signingSecrets(endpoint.segreti, at).map((s) => s.secret);
  const headers = signedHeaders(delivery.eventoId, at, delivery.corpo, secrets);
  const result = await deps.sender.send(endpoint.url, headers, delivery.corpo);
  const done = deps.now();
  const outcome = afterAttempt(delivery, result, done, deps.waits);
  // Compare-and-set: a resend asked for during the attempt keeps its own schedule (the attempt is still logged).
  // The delivery and the endpoint are written side by side.
  const [written] = await Promise.all([
    tenant.deliveries
      .findOneAndUpdate(
        { id: delivery.id, version: delivery.version },
        {
          $push: { tentativi: outcome.attempt },
          $set: {
            stato: outcome.stato,
            prossimoTentativoAt: outcome.prossimoTentativoAt,
            updatedAt: done.toISOString(),
            ...(outcome.stato === 'consegnata' ? { consegnataAt: done.toISOString() } : {}),
          },
          $inc: { version: 1 },
        },
      )
      .then(async (updated) => {
        if (!updated)
          await tenant.deliveries.findOneAndUpdate(
            { id: delivery.id },
            { $push: { tentativi: { ...outcome.attempt, prossimoTentativoAt: null } }, $inc: { version: 1 } },
          );
        return updated;
      }),
    recordOnEndpoint(deps, tenant, endpoint, result, done),
  ]);
  return written;
}

/** `ultimaConsegnaAt` is kept to the minute: a busy endpoint's successes do not each cost a write. */
const LAST_DELIVERED_RESOLUTION_MS = 60_000;

async function recordOnEndpoint(
  deps: DeliverDeps,
  tenant: WebhooksStore,
  endpoint: WebhookRecord,
  result: AttemptResult,
  at: Date,
): Promise<void> {
  const now = at.toISOString();
  if (isDelivered(result)) {
    if (endpoint.inErroreDa !== null) {
      // Back after failing: the one attempt that clears the error brings the endpoint's waiting deliveries forward.
      const recovered = await tenant.webhooks.findOneAndUpdate(
        { id: endpoint.id, inErroreDa: endpoint.inErroreDa },
        { $set: { ultimaConsegnaAt: now, inErroreDa: null } },
      );
      if (recovered) await bringForward(deps, tenant, endpoint.id, at);
      return;
    }
    if (
      endpoint.ultimaConsegnaAt === null ||
      at.getTime() - Date.parse(endpoint.ultimaConsegnaAt) >= LAST_DELIVERED_RESOLUTION_MS
    )
      await tenant.webhooks.findOneAndUpdate({ id: endpoint.id }, { $set: { ultimaConsegnaAt: now } });
    return;
  }
  const failing =
    endpoint.inErroreDa !== null
      ? endpoint
      : ((await tenant.webhooks.findOneAndUpdate(
          { id: endpoint.id, inErroreDa: null },
          { $set: { inErroreDa: now } },
        )) ?? (await tenant.webhooks.findById(endpoint.id)));
  if (!failing?.attivo || !shouldDisable(failing.inErroreDa, at)) return;
  const off = { ...failing, attivo: false, disattivatoAt: now, updatedAt: now, version: failing.version + 1 };
  const { message } = buildEvent({
    tenantId: tenant.tenantId,
    type: 'webhooks.disabled',
    source: 'coperto/webhooks',
    subject: failing.id,
    data: webhookView(off),
    time: at,
  });
  const switched = await tenant.webhooks.findOneAndUpdate(
    { id: failing.id, attivo: true, version: failing.version },
    { $set: { attivo: false, disattivatoAt: now, updatedAt: now }, $inc: { version: 1 } },
    { events: [message] },
  );
  if (switched) deps.onEventsWritten();
}

/** Waiting deliveries read per page when an endpoint comes back. */
const RECOVERY_PAGE = 200;

/**
 * Makes every delivery of the endpoint still waiting for a later try due now: an endpoint that answers again gets
 * what it missed at once, not at each delivery's next try (up to 10 hours away). Each is moved only if unchanged
 * since read (a resend or an attempt under way keeps its own schedule), then put in the queue for now.
 */
async function bringForward(deps: DeliverDeps, tenant: WebhooksStore, webhookId: string, at: Date) {
  const now = at.toISOString();
  for (let after = ''; ;) {
    const page = await tenant.deliveries.find(
      { webhookId, stato: 'in_attesa', prossimoTentativoAt: { $gt: now }, id: { $gt: after } },
      { sort: { id: 1 }, limit: RECOVERY_PAGE },
    );
    // A page's deliveries side by side: one by one, each cost two store round trips (two disk commits in embedded
    // mode), and a receiver back from ten minutes down waited 148 s for its 2,918 missed events (bench scenario 16).
    await Promise.all(
      page.map(async (delivery) => {
        const moved = await tenant.deliveries.findOneAndUpdate(
          { id: delivery.id, version: delivery.version },
          { $set: { prossimoTentativoAt: now }, $inc: { version: 1 } },
        );
        if (moved) await deps.queue.enqueue(tenant.tenantId, delivery.id, webhookId, at);
      }),
    );
    if (page.length < RECOVERY_PAGE) return;
    after = page.at(-1)!.id;
  }
}

async function giveUp(
  tenant: WebhooksStore,
  delivery: DeliveryRecord,
  why: string,
  at: Date,
): Promise<DeliveryRecord | null> {
  return tenant.deliveries.findOneAndUpdate(
    { id: delivery.id, version: delivery.version },
    {
      $push: {
        tentativi: {
          at: at.toISOString(),
          statusCode: null,
          durataMs: 0,
          errore: why,
          prossimoTentativoAt: null,
        },
      },
      $set: { stato: 'fallita', prossimoTentativoAt: null, updatedAt: at.toISOString() },
      $inc: { version: 1 },
    },
  );
}
