import { randomUUID } from 'node:crypto';
import { DuplicateError, InUseError, NotFoundError, WriteConflictError } from '@coperto/errors';
import { DuplicateKeyError } from '@coperto/store';
import { InputChecks } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import type { Viewer } from '@coperto/auth';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, normalizeCodice, type SalaRecord } from './sala-record.js';
import type { SalaStore } from './sala-store.js';
import type { SalaInput, SalaPatch } from './generated/resolvers-types.js';
import { TablesInRoomDocument } from './generated/tavolo-calls.js';

export interface SalaServiceDeps {
  store: SalaStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
  /** After every write to a room, before it is acknowledged: replaces the rooms' read scope. */
  onRoomsChanged: () => Promise<void>;
}

/** Rules for rooms: validation, defaults, unique code, no delete while tables use the room. */
export class SalaService {
  constructor(private readonly deps: SalaServiceDeps) {}

  list(): Promise<SalaRecord[]> {
    return this.deps.store.list();
  }

  get(id: string): Promise<SalaRecord | null> {
    return this.deps.store.findById(id);
  }

  async create(input: SalaInput): Promise<SalaRecord> {
    checkSala(input, true);
    const now = this.deps.now().toISOString();
    const record: SalaRecord = {
      id: randomUUID(),
      codice: normalizeCodice(input.codice),
      descrizione: input.descrizione?.trim() || null,
      width: input.width ?? DEFAULT_WIDTH,
      height: input.height ?? DEFAULT_HEIGHT,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.withDuplicateCheck(record.codice, () => this.deps.store.insert(record));
    await this.deps.onRoomsChanged();
    return created;
  }

  async update(id: string, patch: SalaPatch): Promise<SalaRecord> {
    checkSala(patch, false);
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.deps.store.findById(id);
      if (!current) throw new NotFoundError('Sala', id);
      const next: SalaRecord = {
        ...current,
        ...(patch.codice != null ? { codice: normalizeCodice(patch.codice) } : {}),
        ...(patch.descrizione !== undefined ? { descrizione: patch.descrizione?.trim() || null } : {}),
        ...(patch.width != null ? { width: patch.width } : {}),
        ...(patch.height != null ? { height: patch.height } : {}),
        version: current.version + 1,
        updatedAt: this.deps.now().toISOString(),
      };
      const saved = await this.withDuplicateCheck(next.codice, () =>
        this.deps.store.replace(current.version, next),
      );
      if (saved) {
        await this.deps.onRoomsChanged();
        return saved;
      }
    }
    throw new WriteConflictError('Sala', id);
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    const current = await this.deps.store.findById(id);
    if (!current) throw new NotFoundError('Sala', id);
    const { tavoli } = await this.deps.subgraphs.request(
      'tavolo',
      TablesInRoomDocument,
      { salaId: id },
      `Bearer ${this.deps.viewer.token}`,
    );
    if (tavoli.length > 0) {
      throw new InUseError(`Sala ${id} still has ${tavoli.length} table(s)`, {
        tableIds: tavoli.map((t) => t.id),
      });
    }
    const deleted = await this.deps.store.delete(id);
    if (deleted) await this.deps.onRoomsChanged();
    return { id, deleted };
  }

  private async withDuplicateCheck<T>(codice: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new DuplicateError('codice', codice);
      throw error;
    }
  }
}

function checkSala(input: SalaPatch, creating: boolean) {
  const checks = new InputChecks();
  if (creating) checks.required('codice', input.codice);
  checks
    .text('codice', input.codice, { min: 1, max: 50 })
    .text('descrizione', input.descrizione, { max: 500 })
    .positive('width', input.width)
    .positive('height', input.height);
  if (!creating && input.codice === null) checks.add('codice', 'must not be null');
  checks.throwIfAny();
}
