/** A guest as stored in `ospiti`. */
export interface OspiteRecord {
  id: string;
  nome: string | null;
  /** E.164. */
  telefono: string | null;
  /** Lower-cased. */
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
  spesaTotale: number;
  /** The folded name, for ordering. */
  nomeOrdine: string;
  /** Search keys (search-keys.ts). */
  chiavi: string[];
  /** The outcomes already counted (`<bookingId>:<kind>`): an event seen twice counts once (counts.ts). */
  conteggiati: string[];
  /**
   * The latest of its records' last change and its bookings' start (UTC; absent on guests stored before it
   * existed): what retention reads as the guest's last activity (retention.ts).
   */
  ultimaAttivita?: string | null;
  /** Guests merged into this one. */
  unitiDa: string[];
  /** Set on a guest being merged into another: it no longer changes, and reads follow it there. */
  unitoIn: string | null;
  cancellato: boolean;
  cancellatoAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Who owns a contact (`ospiti_recapiti`): id `tel:<E.164>` or `email:<address>`. One guest per contact. */
export interface RecapitoRecord {
  id: string;
  ospiteId: string;
}

export type TipoCollegamento = 'prenotazione' | 'attesa';

/**
 * A booking or waitlist entry linked to a guest (`ospiti_collegamenti`), id `p:<bookingId>` or `a:<entryId>`,
 * with what the erasure and the guest's booking list need from its last event (no personal data).
 */
export interface CollegamentoRecord {
  id: string;
  tipo: TipoCollegamento;
  riferimento: string;
  ospiteId: string;
  stato: string;
  /** UTC instant of a booking's start (null for a waitlist entry). */
  startsAt: string | null;
  /** `updatedAt` of the record in the last event applied: an older event never overwrites a newer one. */
  aggiornatoAt: string;
  /** A booking's end (UTC) and tables, to tell which booking a table's payment belongs to (spend.ts). */
  endsAt?: string | null;
  tableIds?: string[];
}

export const linkId = (tipo: TipoCollegamento, riferimento: string) =>
  `${tipo === 'prenotazione' ? 'p' : 'a'}:${riferimento}`;

/**
 * An erased guest's contact (`ospiti_oblii`), remembered for a while after the erasure (erasure.ts): id the SHA-256
 * of the contact key, so no phone or email is kept in clear.
 */
export interface TombstoneRecord {
  id: string;
  ospiteId: string;
  cancellatoAt: string;
  /** After this the tombstone is ignored, and dropped by the next erasure. */
  scadeAt: string;
}

/** The tenant's guest settings (`ospiti_impostazioni`, one record, id `impostazioni`). */
export interface ImpostazioniRecord {
  id: string;
  paese: string;
  retentionMonths: number | null;
  updatedAt: string;
}

export const SETTINGS_ID = 'impostazioni';

export function newGuest(
  id: string,
  fields: Pick<OspiteRecord, 'nome' | 'telefono' | 'email' | 'lingua'>,
  now: string,
): Omit<OspiteRecord, 'nomeOrdine' | 'chiavi'> {
  return {
    id,
    ...fields,
    tag: [],
    allergie: [],
    note: null,
    consensoMarketing: false,
    visite: 0,
    coperti: 0,
    noShow: 0,
    annullamentiTardivi: 0,
    primaVisita: null,
    ultimaVisita: null,
    spesaTotale: 0,
    conteggiati: [],
    unitiDa: [],
    unitoIn: null,
    cancellato: false,
    cancellatoAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}
