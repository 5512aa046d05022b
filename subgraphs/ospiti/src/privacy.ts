import { isActiveBookingState } from '@coperto/domain';
import { InUseError, NotFoundError } from '@coperto/errors';
import { requireAdmin, type Viewer } from '@coperto/auth';
import type { SubgraphClient } from '@coperto/server-kit';
import { CancellaDatiOspiteDocument, VoceAttesaDaEsportareDocument } from './generated/prenotazione-calls.js';
import { changeGuest, currentGuest } from './guest-writes.js';
import type { CollegamentoRecord, OspiteRecord } from './ospite-record.js';
import type { GuestFields, OspitiStore } from './ospiti-store.js';

export interface PrivacyDeps {
  store: OspitiStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
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

/** Bookings of the guest, latest start first. */
export function bookingLinks(links: readonly CollegamentoRecord[]): CollegamentoRecord[] {
  return links
    .filter((link) => link.tipo === 'prenotazione')
    .sort((a, b) =>
      (a.startsAt ?? '') < (b.startsAt ?? '') ? 1 : (a.startsAt ?? '') > (b.startsAt ?? '') ? -1 : 0,
    );
}

/** A guest's export (GraphQL EsportazioneOspite): bookings as references prenotazione resolves. */
export interface GuestExport {
  ospite: OspiteRecord;
  prenotazioni: Array<{ __typename: 'Prenotazione'; id: string }>;
  attese: Array<Record<string, unknown> & { id: string }>;
  esportatoAt: string;
}

/** The GDPR rights an administrator exercises for a guest: export and erasure. */
export class GuestPrivacy {
  constructor(private readonly deps: PrivacyDeps) {}

  /** Everything held about the guest: the profile, its bookings (prenotazione's) and waitlist entries. */
  async export(id: string): Promise<GuestExport> {
    requireAdmin(this.deps.viewer, 'export a guest');
    const guest = await this.require(id);
    const links = await this.deps.store.linksOf(guest.id);
    const attese = [];
    for (const link of links.filter((l) => l.tipo === 'attesa')) {
      const { voceAttesa } = await this.deps.subgraphs.request(
        'prenotazione',
        VoceAttesaDaEsportareDocument,
        { id: link.riferimento },
        `Bearer ${this.deps.viewer.token}`,
      );
      if (voceAttesa) attese.push(voceAttesa);
    }
    return {
      ospite: guest,
      prenotazioni: bookingLinks(links).map((link) => ({
        __typename: 'Prenotazione' as const,
        id: link.riferimento,
      })),
      attese,
      esportatoAt: this.deps.now().toISOString(),
    };
  }

  /**
   * Erases the guest's personal data (409 IN_USE while it has a booking still to come): first from its bookings
   * and waitlist entries (prenotazione's), then from the profile, and lets its phone and email go: a later
   * booking with them makes a new guest. Again on an erased guest: the same answer.
   */
  async erase(id: string): Promise<OspiteRecord> {
    requireAdmin(this.deps.viewer, 'erase a guest');
    const guest = await this.require(id);
    if (guest.cancellato) return guest;
    const now = this.deps.now();
    const links = await this.deps.store.linksOf(id);
    const ahead = links.filter(
      (link) =>
        link.tipo === 'prenotazione' &&
        isActiveBookingState(link.stato) &&
        link.startsAt !== null &&
        Date.parse(link.startsAt) > now.getTime(),
    );
    if (ahead.length > 0) {
      throw new InUseError(`Guest ${id} has ${ahead.length} booking(s) still to come`, {
        prenotazioneIds: ahead.map((link) => link.riferimento),
      });
    }
    // The records first: should this fail, nothing is erased yet and the erasure can be asked again.
    const of = (tipo: CollegamentoRecord['tipo']) =>
      links.filter((link) => link.tipo === tipo).map((link) => link.riferimento);
    await this.deps.subgraphs.request(
      'prenotazione',
      CancellaDatiOspiteDocument,
      { prenotazioneIds: of('prenotazione'), vociAttesaIds: of('attesa') },
      `Bearer ${this.deps.viewer.token}`,
    );
    const erased = await changeGuest(this.deps.store, id, this.deps.now, (g) =>
      g.cancellato ? null : erasedGuest(g, now.toISOString()),
    );
    if (!erased) throw new NotFoundError('Ospite', id);
    for (const contact of await this.deps.store.contactsOf(id))
      await this.deps.store.releaseContact(contact.id, id);
    return erased;
  }

  private async require(id: string): Promise<OspiteRecord> {
    const guest = await currentGuest(this.deps.store, id);
    if (!guest || guest.id !== id) throw new NotFoundError('Ospite', id);
    return guest;
  }
}
