/** A kitchen production category as stored in `production_categories`. */
export interface CategoryRecord {
  id: string;
  name: string;
  /** The name trimmed and lower-cased: unique per tenant, so 'Pizzeria' and 'pizzeria ' are the same. */
  nameKey: string;
  capacityPerSlot: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const NAME_MAX_LENGTH = 100;
export const MAX_CAPACITY_PER_SLOT = 100_000;

/** The uniqueness key of a category name. */
export function nameKeyOf(name: string): string {
  return name.trim().toLowerCase();
}
