import { AppError, NotFoundError, ValidationError, WriteConflictError } from '@coperto/errors';
import { earliest, latest } from './counts.js';
import { refuseErased } from './guest-patch.js';
import { changeGuest } from './guest-writes.js';
import type { OspiteRecord } from './ospite-record.js';
import type { GuestFields, OspitiStore } from './ospiti-store.js';

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** `into` with `other` merged in: counts summed, lists joined, fields it lacks taken from `other`. */
export function mergedGuest(into: GuestFields, other: OspiteRecord): GuestFields {
  const notes = [...new Set([into.note, other.note].filter((n): n is string => !!n))];
  return {
    ...into,
    nome: into.nome ?? other.nome,
    telefono: into.telefono ?? other.telefono,
    email: into.email ?? other.email,
    lingua: into.lingua ?? other.lingua,
    tag: union(into.tag, other.tag),
    allergie: union(into.allergie, other.allergie),
    note: notes.length > 0 ? notes.join('\n') : null,
    visite: into.visite + other.visite,
    coperti: into.coperti + other.coperti,
    noShow: into.noShow + other.noShow,
    annullamentiTardivi: into.annullamentiTardivi + other.annullamentiTardivi,
    spesaTotale: into.spesaTotale + other.spesaTotale,
    primaVisita: earliest(into.primaVisita, other.primaVisita),
    ultimaVisita: latest(into.ultimaVisita, other.ultimaVisita),
    ultimaAttivita: latest(into.ultimaAttivita ?? null, other.ultimaAttivita ?? null),
    conteggiati: union(into.conteggiati, other.conteggiati),
    unitiDa: union(into.unitiDa, [other.id, ...other.unitiDa]),
  };
}

/**
 * Merges guest `otherId` into `id` in steps that a repeated call resumes: (1) the other is frozen (`unitoIn`):
 * from then on nothing changes it and reads and counts go to `id`; (2) its counts and fields are added to `id`
 * once (`unitiDa`); (3) its bookings, waitlist entries and contacts are relinked; (4) it is deleted.
 */
export async function mergeGuests(
  store: OspitiStore,
  now: () => Date,
  id: string,
  otherId: string,
): Promise<OspiteRecord> {
  if (id === otherId) throw new ValidationError([{ field: 'ospiteId', message: 'must be another guest' }]);
  const target = await store.guest(id);
  if (!target || target.unitoIn) throw new NotFoundError('Ospite', id);
  refuseErased(target);
  const other = await freeze(store, id, otherId);
  const recheck = await store.guest(id);
  if (!recheck || recheck.unitoIn) {
    // Merged elsewhere at the same moment (say, into the other guest): undo the freeze rather than make a cycle.
    await store.replaceGuest(other, { ...other, unitoIn: null, version: other.version + 1 });
    throw new AppError('INVALID_TRANSITION', `Guest ${id} is being merged into another guest`, { id });
  }
  const merged = await changeGuest(store, id, now, (guest) =>
    guest.unitiDa.includes(otherId) ? null : mergedGuest(guest, other),
  );
  for (const link of await store.linksOf(otherId)) await store.relink(link.id, otherId, id);
  for (const contact of await store.contactsOf(otherId)) await store.moveContact(contact.id, otherId, id);
  await store.deleteGuest(otherId);
  if (!merged) throw new NotFoundError('Ospite', id);
  return merged;
}

/** The other guest with `unitoIn` = `into` (already so when a merge is resumed). */
async function freeze(store: OspitiStore, into: string, otherId: string): Promise<OspiteRecord> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const other = await store.guest(otherId);
    if (!other || (other.unitoIn !== null && other.unitoIn !== into))
      throw new NotFoundError('Ospite', otherId);
    refuseErased(other);
    if (other.unitoIn === into) return other;
    const frozen = await store.replaceGuest(other, {
      ...other,
      unitoIn: into,
      version: other.version + 1,
    });
    if (frozen) return frozen;
  }
  throw new WriteConflictError('Ospite', otherId);
}
