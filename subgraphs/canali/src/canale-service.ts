import { randomUUID } from 'node:crypto';
import { requireAdmin, type ServiceTokenIssuer, type Viewer } from '@coperto/auth';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '@coperto/errors';
import { readCanaleInput } from './canale-input.js';
import type { CanaleRecord } from './canale-record.js';
import type { CanaleStore } from './canale-store.js';
import type { CanaleInput } from './generated/resolvers-types.js';

export interface CanaleServiceDeps {
  store: CanaleStore;
  viewer: Viewer;
  serviceTokens: ServiceTokenIssuer;
  now: () => Date;
}

/** A channel just created, with its key (shown this once). */
export type CreatedCanale = CanaleRecord & { chiave: string };

/** Rules for booking channels: administrators manage them; a channel key may only ask which channel it is. */
export class CanaleService {
  constructor(private readonly deps: CanaleServiceDeps) {}

  list(): Promise<CanaleRecord[]> {
    requireAdmin(this.deps.viewer, 'manage booking channels');
    return this.deps.store.listActive();
  }

  /** The channel of the caller's key. Its existence was checked when the key was verified (store-directory.ts). */
  async current(): Promise<CanaleRecord> {
    const { grant } = this.deps.viewer;
    if (grant?.role !== 'channel') throw new ForbiddenError('Only a channel key has a current channel');
    const found = await this.deps.store.findActive(grant.channelId);
    if (!found) throw new UnauthenticatedError('Channel key revoked');
    return found;
  }

  async create(input: CanaleInput): Promise<CreatedCanale> {
    requireAdmin(this.deps.viewer, 'manage booking channels');
    const { nome, origini } = readCanaleInput(input);
    const record: CanaleRecord = {
      id: randomUUID(),
      nome,
      origini,
      createdAt: this.deps.now().toISOString(),
      deletedAt: null,
    };
    // The key first: a channel is never stored without one having been issued for it.
    const { token } = await this.deps.serviceTokens.channelKey({
      tenantId: this.deps.viewer.tenantId,
      channelId: record.id,
      channelName: nome,
    });
    const created = await this.deps.store.insert(record);
    return { ...created, chiave: token };
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    requireAdmin(this.deps.viewer, 'manage booking channels');
    const deleted = await this.deps.store.markDeleted(id, this.deps.now().toISOString());
    if (!deleted) throw new NotFoundError('Canale', id);
    return { id, deleted: true };
  }
}
