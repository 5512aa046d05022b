import { createHash } from 'node:crypto';
import { MAX_AGE_MS } from '@coperto/bus';
import { isActiveBookingState } from '@coperto/domain';
import { InUseError, NotFoundError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import { CancellaDatiOspiteDocument } from './generated/prenotazione-calls.js';
import { changeGuest } from './guest-writes.js';
import type { CollegamentoRecord, OspiteRecord } from './ospite-record.js';
import type { GuestFields, OspitiStore } from './ospiti-store.js';

/**
 * How long an erased guest's contacts are remembered (as SHA-256 digests, never in clear): a booking or waitlist
 * entry made before the erasure whose event arrives later is then linked to the erased guest and erased too
 * (linker.ts). As long as the event stream keeps an event (7 days): no event can arrive later than that.
 */
export const TOMBSTONE_MS = MAX_AGE_MS;

/** The id of an erased contact's tombstone: the digest of its contact key (`tel:+39…`, `email:…`). */
export function tombstoneId(contactKey: string): string {
  return createHash('sha256').update(contactKey).digest('hex');
}

/** The guest with its personal data replaced: counts, dates of visits and links kept. */
export function erasedGuest(guest: GuestFields, at: string): GuestFields {
  return {
    ...guest,
    nome: null,
    telefono: null,
    email: null,
    lingua: null,
    note: null,
    tag: [],
    allergie: [],
    consensoMarketing: false,
    cancellato: true,
    cancellatoAt: at,
  };
}

/** The guest's bookings that are active and still to come: an erasure waits for them (409 IN_USE). */
export function bookingsAhead(links: readonly CollegamentoRecord[], now: Date): CollegamentoRecord[] {
  return links.filter(
    (link) =>
      link.tipo === 'prenotazione' &&
      isActiveBookingState(link.stato) &&
      link.startsAt !== null &&
      Date.parse(link.startsAt) > now.getTime(),
  );
}

/** Ids of the records of one kind among the links. */
export const idsOf = (links: readonly CollegamentoRecord[], tipo: CollegamentoRecord['tipo']) =>
  links.filter((link) => link.tipo === tipo).map((link) => link.riferimento);

export interface ErasureDeps {
  store: OspitiStore;
  subgraphs: SubgraphClient;
  now: () => Date;
  /** The `Authorization` prenotazione's `cancellaDatiOspite` is asked with: an administrator's, or ospiti's own. */
  authorization: () => Promise<string>;
}

/** Asks prenotazione to erase the name, phone, email and notes of these bookings and waitlist entries. */
export async function eraseRecords(
  deps: Pick<ErasureDeps, 'subgraphs' | 'authorization'>,
  prenotazioneIds: string[],
  vociAttesaIds: string[],
): Promise<void> {
  if (prenotazioneIds.length === 0 && vociAttesaIds.length === 0) return;
  await deps.subgraphs.request(
    'prenotazione',
    CancellaDatiOspiteDocument,
    { prenotazioneIds, vociAttesaIds },
    await deps.authorization(),
  );
}

/**
 * Erases the guest (409 IN_USE while it has a booking still to come): first its bookings and waitlist entries
 * (prenotazione's; should that fail nothing is erased here yet and the erasure can be asked again), then the
 * profile; its contacts are let go (a later booking with them makes a new guest) and remembered as tombstones
 * for TOMBSTONE_MS. An erased guest: returned as it is.
 */
export async function eraseGuest(deps: ErasureDeps, guest: OspiteRecord): Promise<OspiteRecord> {
  if (guest.cancellato) return guest;
  const now = deps.now();
  const links = await deps.store.linksOf(guest.id);
  const ahead = bookingsAhead(links, now);
  if (ahead.length > 0) {
    throw new InUseError(`Guest ${guest.id} has ${ahead.length} booking(s) still to come`, {
      prenotazioneIds: ahead.map((link) => link.riferimento),
    });
  }
  await eraseRecords(deps, idsOf(links, 'prenotazione'), idsOf(links, 'attesa'));
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + TOMBSTONE_MS).toISOString();
  const contacts = await deps.store.contactsOf(guest.id);
  // Tombstones before the profile changes: a late record seen in between still finds where it belongs.
  for (const contact of contacts)
    await deps.store.saveTombstone({
      id: tombstoneId(contact.id),
      ospiteId: guest.id,
      cancellatoAt: at,
      scadeAt: expiresAt,
    });
  const erased = await changeGuest(deps.store, guest.id, deps.now, (g) =>
    g.cancellato ? null : erasedGuest(g, at),
  );
  if (!erased) throw new NotFoundError('Ospite', guest.id);
  // Records linked while this ran (the linker read the guest before the mark above) are in no list read before:
  // erase them too. A record linked after this read sees the mark and erases itself (linker.ts).
  const seen = new Set(links.map((link) => link.id));
  const late = (await deps.store.linksOf(guest.id)).filter((link) => !seen.has(link.id));
  if (late.length > 0) await eraseRecords(deps, idsOf(late, 'prenotazione'), idsOf(late, 'attesa'));
  for (const contact of contacts) await deps.store.releaseContact(contact.id, guest.id);
  await deps.store.dropExpiredTombstones(at);
  return erased;
}
