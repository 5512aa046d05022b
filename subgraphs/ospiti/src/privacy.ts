import { NotFoundError } from '@coperto/errors';
import { requireAdmin, type Viewer } from '@coperto/auth';
import type { SubgraphClient } from '@coperto/server-kit';
import { eraseGuest } from './erasure.js';
import { VoceAttesaDaEsportareDocument } from './generated/prenotazione-calls.js';
import { currentGuest } from './guest-writes.js';
import type { CollegamentoRecord, OspiteRecord } from './ospite-record.js';
import type { OspitiStore } from './ospiti-store.js';

export interface PrivacyDeps {
  store: OspitiStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
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
   * and waitlist entries (prenotazione's), then from the profile (erasure.ts). Again on an erased guest: the same
   * answer.
   */
  async erase(id: string): Promise<OspiteRecord> {
    requireAdmin(this.deps.viewer, 'erase a guest');
    const { store, subgraphs, now, viewer } = this.deps;
    return eraseGuest(
      { store, subgraphs, now, authorization: () => Promise.resolve(`Bearer ${viewer.token}`) },
      await this.require(id),
    );
  }

  private async require(id: string): Promise<OspiteRecord> {
    const guest = await currentGuest(this.deps.store, id);
    if (!guest || guest.id !== id) throw new NotFoundError('Ospite', id);
    return guest;
  }
}
