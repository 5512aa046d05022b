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
}

export const linkId = (tipo: TipoCollegamento, riferimento: string) =>
  `${tipo === 'prenotazione' ? 'p' : 'a'}:${riferimento}`;

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
