import { randomUUID } from 'node:crypto';
import { applyOutcome, latest, outcomeOf } from './counts.js';
import { contactKey, DEFAULT_COUNTRY, normalizeEmail, normalizePhone } from './contacts.js';
import { tombstoneId } from './erasure.js';
import type { RecordFacts } from './event-facts.js';
import { changeGuest, currentGuest } from './guest-writes.js';
import { linkId, newGuest, type OspiteRecord } from './ospite-record.js';
import type { OspitiStore } from './ospiti-store.js';

const MAX_ATTEMPTS = 5;

/** What a record's event says of its guest's last activity: its last change, or a booking's start if later. */
export function activityOf(facts: Pick<RecordFacts, 'startsAt' | 'updatedAt'>): string {
  return latest(facts.updatedAt, facts.startsAt) ?? facts.updatedAt;
}

/**
 * The guest's stored last activity is moved on only when an event's is later by more than this: one write a day
 * at most rather than one per event. Retention counts in months and checks the links before it erases anyone.
 */
export const ACTIVITY_STEP_MS = 24 * 60 * 60 * 1000;

/** The activity to store, or null when the stored one is recent enough. */
export function activityToStore(stored: string | null | undefined, active: string): string | null {
  if (!stored) return active;
  return Date.parse(active) - Date.parse(stored) > ACTIVITY_STEP_MS ? active : null;
}

/**
 * Links bookings and waitlist entries to guests and keeps the guests' counts, from their events. Idempotent:
 * the link's id is the record's, a contact has one owner (`ospiti_recapiti`), an outcome is counted once per
 * booking (counts.ts), and an event older than the last one applied does not move the link's state back.
 */
export class GuestLinker {
  constructor(
    private readonly store: OspitiStore,
    private readonly now: () => Date,
    /** Erases a record of an erased guest in prenotazione (guest-events.ts); throws to have the event again. */
    private readonly eraseLate: (facts: RecordFacts) => Promise<void>,
  ) {}

  async apply(facts: RecordFacts): Promise<void> {
    const id = linkId(facts.tipo, facts.id);
    let link = await this.store.link(id);
    const state = {
      stato: facts.state,
      startsAt: facts.startsAt,
      aggiornatoAt: facts.updatedAt,
      tableIds: facts.tableIds,
    };
    if (link) {
      await this.store.updateLinkState(id, state);
    } else {
      const country = (await this.store.settings())?.paese ?? DEFAULT_COUNTRY;
      const phone = normalizePhone(facts.phone, country);
      const email = normalizeEmail(facts.email);
      // Never by the name alone: a record without a phone or an email has no guest.
      if (!phone && !email) return;
      const guest = await this.guestFor(phone, email, facts);
      // A record of an erased guest (made before the erasure, seen after it) loses its data first: should that
      // fail, no link is made and the event comes again.
      if (guest.cancellato) await this.eraseLate(facts);
      link = await this.store.insertLink({
        id,
        tipo: facts.tipo,
        riferimento: facts.id,
        ospiteId: guest.id,
        ...state,
      });
      if (link.ospiteId !== guest.id) await this.store.updateLinkState(id, state);
      // An erasure of this guest may have begun after the guest was read: linked now, the record is in no list
      // that erasure read, so it loses its data here (the erasure reads the links again after its mark).
      if (!guest.cancellato && (await currentGuest(this.store, link.ospiteId))?.cancellato)
        await this.eraseLate(facts);
    }
    const booking = facts.booking;
    const outcome = booking && outcomeOf(booking);
    const active = activityOf(facts);
    await changeGuest(this.store, link.ospiteId, this.now, (guest) => {
      const counted = booking && outcome ? applyOutcome(guest, booking, outcome) : null;
      const moved = activityToStore(guest.ultimaAttivita, active);
      if (!counted && !moved) return null;
      return { ...(counted ?? guest), ultimaAttivita: moved ?? guest.ultimaAttivita ?? null };
    });
  }

  /**
   * The guest of the record: an erased guest whose tombstone holds one of its contacts when the record was made
   * before that erasure; else the guest owning the phone (else the email), made when there is none.
   */
  private async guestFor(
    phone: string | null,
    email: string | null,
    facts: RecordFacts,
  ): Promise<OspiteRecord> {
    const keys = [phone && contactKey('tel', phone), email && contactKey('email', email)].filter(
      (key): key is string => !!key,
    );
    const erased = await this.erasedGuestOf(keys, facts);
    if (erased) return erased;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      for (const key of keys) {
        const owner = await this.store.contact(key);
        if (owner) return this.ensureGuest(owner.ospiteId, phone, email, facts);
      }
      const id = randomUUID();
      // The first contact decides who makes the guest: one of any number of concurrent makers wins.
      if ((await this.store.claimContact(keys[0]!, id)) === id)
        return this.ensureGuest(id, phone, email, facts);
    }
    throw new Error(`The contacts of ${facts.tipo} ${facts.id} kept changing owner`);
  }

  /** The erased guest a record made before its erasure belongs to (a tombstone of one of its contacts). */
  private async erasedGuestOf(keys: readonly string[], facts: RecordFacts): Promise<OspiteRecord | null> {
    const now = this.now().toISOString();
    for (const key of keys) {
      const tombstone = await this.store.tombstone(tombstoneId(key), now);
      if (!tombstone || (facts.createdAt ?? facts.updatedAt) > tombstone.cancellatoAt) continue;
      const guest = await currentGuest(this.store, tombstone.ospiteId);
      if (guest) return guest;
    }
    return null;
  }

  /**
   * The guest with this id (made when a crash left its contact without it), with the record's other contact
   * and any missing name or language added; an erased guest gets no personal data back.
   */
  private async ensureGuest(
    id: string,
    phone: string | null,
    email: string | null,
    facts: RecordFacts,
  ): Promise<OspiteRecord> {
    let guest = await currentGuest(this.store, id);
    if (!guest) {
      await this.store.insertGuest({
        ...newGuest(
          id,
          { nome: facts.name, telefono: phone, email, lingua: facts.lingua },
          this.now().toISOString(),
        ),
        ultimaAttivita: activityOf(facts),
      });
      guest = await currentGuest(this.store, id);
      if (!guest) throw new Error(`Guest ${id} vanished while it was made`);
    }
    if (guest.cancellato) return guest;
    const ownsPhone =
      phone !== null && (await this.store.claimContact(contactKey('tel', phone), guest.id)) === guest.id;
    const ownsEmail =
      email !== null && (await this.store.claimContact(contactKey('email', email), guest.id)) === guest.id;
    const updated = await changeGuest(this.store, guest.id, this.now, (g) => {
      if (g.cancellato) return null;
      const fill = {
        nome: g.nome ?? facts.name,
        telefono: g.telefono ?? (ownsPhone ? phone : null),
        email: g.email ?? (ownsEmail ? email : null),
        lingua: g.lingua ?? facts.lingua,
      };
      const same =
        fill.nome === g.nome &&
        fill.telefono === g.telefono &&
        fill.email === g.email &&
        fill.lingua === g.lingua;
      return same ? null : { ...g, ...fill };
    });
    return updated ?? guest;
  }
}
