import { randomUUID } from 'node:crypto';
import { requireAdmin, type Viewer } from '@coperto/auth';
import { DuplicateError, NotFoundError, WriteConflictError } from '@coperto/errors';
import { DuplicateKeyError } from '@coperto/store';
import { InputChecks } from '@coperto/domain';
import { MAX_CAPACITY_PER_SLOT, NAME_MAX_LENGTH, nameKeyOf, type CategoryRecord } from './category-record.js';
import type { CategoryStore } from './category-store.js';
import type { ProductionCategoryInput, ProductionCategoryPatch } from './generated/resolvers-types.js';

const MAX_CAS_ATTEMPTS = 5;
/** What only an administrator may do here (the 403's message). */
const CHANGE_CAPACITY = 'change the capacity settings';

/** Rules for production categories: administrators write, names unique per tenant, capacity ≥ 0. */
export class CategoryService {
  constructor(private readonly deps: { store: CategoryStore; viewer: Viewer; now: () => Date }) {}

  list(): Promise<CategoryRecord[]> {
    return this.deps.store.list();
  }

  get(id: string): Promise<CategoryRecord | null> {
    return this.deps.store.findById(id);
  }

  async create(input: ProductionCategoryInput): Promise<CategoryRecord> {
    requireAdmin(this.deps.viewer, CHANGE_CAPACITY);
    checkCategory(input);
    const now = this.deps.now().toISOString();
    const name = input.name.trim();
    return this.withDuplicateCheck(name, () =>
      this.deps.store.insert({
        id: randomUUID(),
        name,
        nameKey: nameKeyOf(name),
        capacityPerSlot: input.capacityPerSlot,
        version: 1,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  async update(id: string, patch: ProductionCategoryPatch): Promise<CategoryRecord> {
    requireAdmin(this.deps.viewer, CHANGE_CAPACITY);
    checkCategory(patch);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.findById(id);
      if (!current) throw new NotFoundError('ProductionCategory', id);
      const name = patch.name != null ? patch.name.trim() : current.name;
      const next: CategoryRecord = {
        ...current,
        name,
        nameKey: nameKeyOf(name),
        capacityPerSlot: patch.capacityPerSlot ?? current.capacityPerSlot,
        version: current.version + 1,
        updatedAt: this.deps.now().toISOString(),
      };
      const saved = await this.withDuplicateCheck(name, () => this.deps.store.replace(current.version, next));
      if (saved) return saved;
    }
    throw new WriteConflictError('ProductionCategory', id);
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    requireAdmin(this.deps.viewer, CHANGE_CAPACITY);
    if (!(await this.deps.store.delete(id))) throw new NotFoundError('ProductionCategory', id);
    return { id, deleted: true };
  }

  private async withDuplicateCheck<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new DuplicateError('name', name);
      throw error;
    }
  }
}

function checkCategory(input: ProductionCategoryPatch): void {
  const checks = new InputChecks()
    .text('name', input.name, { min: 1, max: NAME_MAX_LENGTH })
    .intInRange('capacityPerSlot', input.capacityPerSlot, 0, MAX_CAPACITY_PER_SLOT);
  if (input.name === null) checks.add('name', 'must not be null');
  if (input.capacityPerSlot === null) checks.add('capacityPerSlot', 'must not be null');
  checks.throwIfAny();
}
