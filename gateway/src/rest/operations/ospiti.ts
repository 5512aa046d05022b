/** Operations behind the guest routes (the ospiti subgraph; bookings resolved by prenotazione). */
import {
  COPPIA_OSPITI_FIELDS,
  ESPORTAZIONE_OSPITE_FIELDS,
  OSPITE_FIELDS,
  PRENOTAZIONE_FIELDS,
} from '../generated/fragments.js';

export const ospitiOperations = {
  ListOspiti: `query ListOspiti($q: String, $tag: String, $limite: Int) { ospiti(q: $q, tag: $tag, limite: $limite) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  GetOspite: `query GetOspite($id: ID!) { ospite(id: $id) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  UpdateOspite: `mutation UpdateOspite($id: ID!, $input: OspitePatch!) { updateOspite(id: $id, input: $input) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  PrenotazioniOspite: `query PrenotazioniOspite($id: ID!) { prenotazioniOspite(id: $id) { ...PrenotazioneFields } } ${PRENOTAZIONE_FIELDS}`,
  OspitiDuplicati: `query OspitiDuplicati { ospitiDuplicati { ...CoppiaOspitiFields } } ${COPPIA_OSPITI_FIELDS}`,
  UnisciOspiti: `mutation UnisciOspiti($id: ID!, $ospiteId: ID!) { unisciOspiti(id: $id, ospiteId: $ospiteId) { ...OspiteFields } } ${OSPITE_FIELDS}`,
  EsportaOspite: `query EsportaOspite($id: ID!) { esportaOspite(id: $id) { ...EsportazioneOspiteFields } } ${ESPORTAZIONE_OSPITE_FIELDS}`,
  OblioOspite: `mutation OblioOspite($id: ID!) { oblioOspite(id: $id) { ...OspiteFields } } ${OSPITE_FIELDS}`,
} as const;
