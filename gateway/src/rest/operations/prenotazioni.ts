/** Operations behind the booking routes. */
import {
  GESTIONE_PRENOTAZIONE_FIELDS,
  OPZIONE_FIELDS,
  PRENOTAZIONE_CREATA_FIELDS,
  PRENOTAZIONE_FIELDS,
  RELEASE_OPZIONE_RESULT_FIELDS,
  SYNC_PAGE_FIELDS,
} from '../generated/fragments.js';

export const prenotazioniOperations = {
  CreatePrenotazione: `mutation CreatePrenotazione($input: PrenotazioneInput!) { createPrenotazione(input: $input) { ...PrenotazioneCreataFields } } ${PRENOTAZIONE_CREATA_FIELDS}`,
  ListPrenotazioni: `query ListPrenotazioni($filter: PrenotazioniFilter) { prenotazioni(filter: $filter) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  GetPrenotazione: `query GetPrenotazione($id: ID!) { prenotazione(id: $id) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  UpdatePrenotazione: `mutation UpdatePrenotazione($id: ID!, $input: PrenotazionePatch!) { updatePrenotazione(id: $id, input: $input) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  ConfermaPrenotazione: `mutation ConfermaPrenotazione($id: ID!) { confermaPrenotazione(id: $id) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  AnnullaPrenotazione: `mutation AnnullaPrenotazione($id: ID!, $motivo: String) { annullaPrenotazione(id: $id, motivo: $motivo) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  GestionePrenotazione: `mutation GestionePrenotazione($id: ID!) { gestionePrenotazione(id: $id) { ...GestionePrenotazioneFields } } ${GESTIONE_PRENOTAZIONE_FIELDS}`,
  CambiaStatoPrenotazione: `mutation CambiaStatoPrenotazione($id: ID!, $nuovoStato: BookingState!) { cambiaStatoPrenotazione(id: $id, nuovoStato: $nuovoStato) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  SyncPrenotazioni: `query SyncPrenotazioni($modifiedSince: DateTime, $dal: LocalDate, $al: LocalDate, $limit: Int) {
    syncPrenotazioni(modifiedSince: $modifiedSince, dal: $dal, al: $al, limit: $limit) { ...SyncPageFields }
  } ${SYNC_PAGE_FIELDS}`,
  CreateOpzione: `mutation CreateOpzione($input: OpzioneInput!) { createOpzione(input: $input) { ...OpzioneFields } } ${OPZIONE_FIELDS}`,
  ListOpzioni: `query ListOpzioni { opzioni { ...OpzioneFields } } ${OPZIONE_FIELDS}`,
  ReleaseOpzione: `mutation ReleaseOpzione($id: ID!) { releaseOpzione(id: $id) { ...ReleaseOpzioneResultFields } } ${RELEASE_OPZIONE_RESULT_FIELDS}`,
} as const;
