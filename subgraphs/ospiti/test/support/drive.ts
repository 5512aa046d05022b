import { vi, expect } from 'vitest';
import type { Hosted } from './hosted.js';

export const GUEST_FIELDS = `id nome name telefono phone email lingua tag tags allergie note notes consensoMarketing visite
  coperti noShow annullamentiTardivi primaVisita ultimaVisita cancellato cancellatoAt createdAt`;

export interface Guest {
  id: string;
  nome: string | null;
  telefono: string | null;
  email: string | null;
  lingua: string | null;
  tag: string[];
  allergie: string[];
  note: string | null;
  consensoMarketing: boolean;
  visite: number;
  coperti: number;
  noShow: number;
  annullamentiTardivi: number;
  primaVisita: string | null;
  ultimaVisita: string | null;
  cancellato: boolean;
  cancellatoAt: string | null;
}

/** What the tests do through the subgraphs' GraphQL APIs (`hosted`: the harness, made in a beforeAll). */
export function drive(hosted: () => Hosted) {
  const book = async (token: string, input: Record<string, unknown>) =>
    (
      await hosted().run<{ createPrenotazione: { id: string } }>(
        'prenotazione',
        'mutation($i: PrenotazioneInput!) { createPrenotazione(input: $i) { id } }',
        { i: { covers: 2, bookingDate: '2027-05-10T20:00:00', ...input } },
        token,
      )
    ).createPrenotazione.id;

  const guestOfBooking = async (token: string, id: string) =>
    (
      await hosted().run<{ _entities: Array<{ ospite: Guest | null }> }>(
        'ospiti',
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Prenotazione { ospite { ${GUEST_FIELDS} } } } }`,
        { r: [{ __typename: 'Prenotazione', id }] },
        token,
      )
    )._entities[0]!.ospite;

  /** The booking's guest once ospiti has consumed its events (they arrive through the outbox and the bus). */
  const linkedGuest = (token: string, id: string) =>
    vi.waitFor(
      async () => {
        const guest = await guestOfBooking(token, id);
        expect(guest).not.toBeNull();
        return guest!;
      },
      { timeout: 5000, interval: 20 },
    );

  const setState = (token: string, id: string, nuovoStato: string) =>
    hosted().run(
      'prenotazione',
      'mutation($id: ID!, $s: BookingState!) { cambiaStatoPrenotazione(id: $id, nuovoStato: $s) { id } }',
      { id, s: nuovoStato },
      token,
    );

  const guest = async (token: string, id: string) =>
    (
      await hosted().run<{ ospite: Guest | null }>(
        'ospiti',
        `query($id: ID!) { ospite(id: $id) { ${GUEST_FIELDS} } }`,
        { id },
        token,
      )
    ).ospite;

  return { book, guestOfBooking, linkedGuest, setState, guest };
}
