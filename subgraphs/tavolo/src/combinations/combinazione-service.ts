import { randomUUID } from 'node:crypto';
import { requireAdmin, type Viewer } from '@coperto/auth';
import { InputChecks } from '@coperto/domain';
import { NotFoundError, WriteConflictError } from '@coperto/errors';
import { COMBINAZIONE_COVERS, COMBINAZIONE_TABLES, type CombinazioneRecord } from './combinazione-record.js';
import {
  checkCombinazioneInput,
  checkCombinazioneTables,
  mergeCombinazioneAliases,
  type CombinazioneDraft,
} from './combinazione-rules.js';
import type { CombinazioneChanges, CombinazioneStore } from './combinazione-store.js';
import type { CombinazioneInput } from '../generated/resolvers-types.js';
import type { TavoloStore } from '../tables/tavolo-store.js';

const MAX_CAS_ATTEMPTS = 8;

/** Rules for table combinations: any staff member reads, administrators write; every write checked whole. */
export class CombinazioneService {
  constructor(
    private readonly deps: {
      store: CombinazioneStore;
      tables: TavoloStore;
      viewer: Viewer;
      now: () => Date;
    },
  ) {}

  list(query: { salaId?: string | null; attivo?: boolean | null }): Promise<CombinazioneRecord[]> {
    return this.deps.store.list(query);
  }

  get(id: string): Promise<CombinazioneRecord | null> {
    return this.deps.store.findById(id);
  }

  async create(input: CombinazioneInput): Promise<CombinazioneRecord> {
    requireAdmin(this.deps.viewer, 'change table combinations');
    const fields = mergeCombinazioneAliases(input);
    checkCombinazioneInput(fields, { create: true }).throwIfAny();
    const draft: CombinazioneDraft = {
      tableIds: fields.tableIds!,
      capacitaMin: fields.capacitaMin ?? COMBINAZIONE_COVERS.defaultMin,
      capacitaMax: fields.capacitaMax!,
      attivo: fields.attivo ?? true,
    };
    const salaId = await this.checkTables(draft);
    const now = this.deps.now().toISOString();
    return this.deps.store.insert({
      id: randomUUID(),
      nome: fields.nome!.trim(),
      ...draft,
      tableIds: [...draft.tableIds],
      salaId,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Only the fields sent change; the combination as it would be is checked whole (tables, room, covers). */
  async update(id: string, input: CombinazioneInput): Promise<CombinazioneRecord> {
    requireAdmin(this.deps.viewer, 'change table combinations');
    const fields = mergeCombinazioneAliases(input);
    checkCombinazioneInput(fields, { create: false }).throwIfAny();
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.require(id);
      const draft: CombinazioneDraft = {
        tableIds: fields.tableIds ?? current.tableIds,
        capacitaMin: fields.capacitaMin ?? current.capacitaMin,
        capacitaMax: fields.capacitaMax ?? current.capacitaMax,
        attivo: fields.attivo ?? current.attivo,
      };
      const salaId = await this.checkTables(draft);
      const saved = await this.deps.store.update(id, current.version, {
        ...(fields.nome != null ? { nome: fields.nome.trim() } : {}),
        ...draft,
        tableIds: [...draft.tableIds],
        salaId,
        updatedAt: this.deps.now().toISOString(),
      });
      if (saved) return saved;
    }
    throw new WriteConflictError('Combinazione', id);
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    requireAdmin(this.deps.viewer, 'change table combinations');
    await this.require(id);
    return { id, deleted: await this.deps.store.delete(id) };
  }

  /**
   * A deleted table leaves each of its combinations; one left with fewer than two tables, or with fewer seats
   * than its capacitaMax, is deactivated (an administrator revises it). Called by the table delete path.
   */
  async removeTable(tableId: string): Promise<void> {
    for (const combination of await this.deps.store.listWithTable(tableId)) {
      await this.withoutTable(combination, tableId);
    }
  }

  private async withoutTable(first: CombinazioneRecord, tableId: string): Promise<void> {
    let current: CombinazioneRecord | null = first;
    for (let attempt = 0; current && attempt < MAX_CAS_ATTEMPTS; attempt++) {
      if (!current.tableIds.includes(tableId)) return;
      const changes = await this.afterRemoval(current, tableId);
      if (await this.deps.store.update(current.id, current.version, changes)) return;
      current = await this.deps.store.findById(current.id);
    }
    if (current) throw new WriteConflictError('Combinazione', current.id);
  }

  private async afterRemoval(combination: CombinazioneRecord, tableId: string): Promise<CombinazioneChanges> {
    const tableIds = combination.tableIds.filter((id) => id !== tableId);
    const seats = (await this.deps.tables.findByIds(tableIds)).reduce((sum, t) => sum + t.capacita, 0);
    const stillFits = tableIds.length >= COMBINAZIONE_TABLES.min && combination.capacitaMax <= seats;
    return {
      tableIds,
      attivo: combination.attivo && stillFits,
      updatedAt: this.deps.now().toISOString(),
    };
  }

  private async require(id: string): Promise<CombinazioneRecord> {
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('Combinazione', id);
    return found;
  }

  /** The table rules (400 naming the fields); returns the combination's room. */
  private async checkTables(draft: CombinazioneDraft): Promise<string | null> {
    const tables = await this.deps.tables.findByIds(draft.tableIds);
    const checks = new InputChecks();
    const room = checkCombinazioneTables(draft, tables, checks);
    checks.throwIfAny();
    return room;
  }
}
