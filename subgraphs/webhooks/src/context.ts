import { ForbiddenError } from '@coperto/errors';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { WebhooksSettings } from './config.js';
import type { DeliveryQueue } from './delivery/delivery-queue.js';
import { WebhooksService } from './webhooks-service.js';
import { WebhooksStore } from './webhooks-store.js';

export interface WebhooksContext {
  /** Built on first use: every operation is an administrator's (403 for anyone else). */
  webhooks(): WebhooksService;
}

export interface WebhooksHosting {
  deps: SubgraphDeps;
  settings: WebhooksSettings;
  queue: DeliveryQueue;
  onQueued: () => void;
}

export async function createWebhooksContext(
  hosting: WebhooksHosting,
  request: SubgraphRequest,
): Promise<WebhooksContext> {
  const { deps } = hosting;
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  // Webhooks are the tenant's own integrations: a channel key or a guest token reaches none of them.
  if (viewer.grant) throw new ForbiddenError('Webhooks are for administrators only');
  let service: WebhooksService | undefined;
  return {
    webhooks: () =>
      (service ??= new WebhooksService({
        store: new WebhooksStore(deps.store, viewer.tenantId),
        queue: hosting.queue,
        viewer,
        now: deps.now ?? (() => new Date()),
        allowPrivate: hosting.settings.allowPrivate,
        onQueued: hosting.onQueued,
      })),
  };
}
