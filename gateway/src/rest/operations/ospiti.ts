/** Operations behind the guest routes (the ospiti subgraph; bookings resolved by prenotazione). */
import { PRENOTAZIONE_FIELDS } from './prenotazioni.js';

const OSPITE_FIELDS = /* GraphQL */ `
  fragment OspiteFields on Ospite {
    id
    nome
    name
    telefono
    phone
    email
    lingua
    language
    tag
    tags
    allergie
    allergies
    note
    notes
    consensoMarketing
    marketingConsent
    visite
    visits
    coperti
    covers
    noShow
    noShows
    annullamentiTardivi
    lateCancellations
    primaVisita
    firstVisit
    ultimaVisita
    lastVisit
    spesaTotale
    totalSpend
    cancellato
    erased
    cancellatoAt
    erasedAt
    createdAt
    updatedAt
  }
`;

/** A waitlist entry in a guest's export. */
const ATTESA_ESPORTATA_FIELDS = /* GraphQL */ `
  fragment AttesaEsportataFields on AttesaEsportata {
    id
    customerName
    customerPhone
    covers
    notes
    state
    prenotazioneId
    motivo
    createdAt
    updatedAt
  }
`;

export const ospitiOperations = {
  ListOspiti: `query ListOspiti($q: String, $tag: String, $limite: Int) { ospiti(q: $q, tag: $tag, limite: $limite) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  GetOspite: `query GetOspite($id: ID!) { ospite(id: $id) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  UpdateOspite: `mutation UpdateOspite($id: ID!, $input: OspitePatch!) { updateOspite(id: $id, input: $input) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  PrenotazioniOspite: `query PrenotazioniOspite($id: ID!) { prenotazioniOspite(id: $id) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  OspitiDuplicati: `query OspitiDuplicati { ospitiDuplicati { a { ...OspiteFields } b { ...OspiteFields } campi fields } } ${OSPITE_FIELDS}`,
  UnisciOspiti: `mutation UnisciOspiti($id: ID!, $ospiteId: ID!) { unisciOspiti(id: $id, ospiteId: $ospiteId) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  EsportaOspite: `query EsportaOspite($id: ID!) { esportaOspite(id: $id) { ospite { ...OspiteFields } prenotazioni { ...PrenotazioneFields } attese { ...AttesaEsportataFields } esportatoAt } } ${OSPITE_FIELDS} ${PRENOTAZIONE_FIELDS} ${ATTESA_ESPORTATA_FIELDS}`,
  OblioOspite: `mutation OblioOspite($id: ID!) { oblioOspite(id: $id) { ...OspiteFields } } ${OSPITE_FIELDS}`,
} as const;
