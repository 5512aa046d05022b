import { WriteConflictError } from '@coperto/errors';
import type { OspiteRecord } from './ospite-record.js';
import type { GuestFields, OspitiStore } from './ospiti-store.js';

const MAX_ATTEMPTS = 10;

/**
 * The guest, following merges (a guest merged into another reads as that one); null when there is none.
 */
export async function currentGuest(store: OspitiStore, id: string): Promise<OspiteRecord | null> {
  let guest = await store.guest(id);
  for (let hops = 0; guest?.unitoIn && hops < MAX_ATTEMPTS; hops++) guest = await store.guest(guest.unitoIn);
  return guest && !guest.unitoIn ? guest : null;
}

/**
 * Read, change, compare-and-set on `version`, again when the guest moved meanwhile; a guest being merged is
 * never changed: the change goes to the guest it is merged into. `change` returns null for "nothing to do".
 * Null when there is no such guest; otherwise the guest as it is after the change.
 */
export async function changeGuest(
  store: OspitiStore,
  id: string,
  now: () => Date,
  change: (guest: OspiteRecord) => GuestFields | null,
): Promise<OspiteRecord | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const guest = await currentGuest(store, id);
    if (!guest) return null;
    const next = change(guest);
    if (!next) return guest;
    const saved = await store.replaceGuest(guest, {
      ...next,
      id: guest.id,
      version: guest.version + 1,
      updatedAt: now().toISOString(),
    });
    if (saved) return saved;
  }
  throw new WriteConflictError('Ospite', id);
}
