/** Operations behind the table-combination routes. */
import { COMBINAZIONE_FIELDS, DELETE_COMBINAZIONE_RESULT_FIELDS } from '../generated/fragments.js';

export const combinazioniOperations = {
  ListCombinazioni: `query ListCombinazioni($salaId: ID, $attivo: Boolean) { combinazioni(salaId: $salaId, attivo: $attivo) { ...CombinazioneFields } } ${COMBINAZIONE_FIELDS}`,
  GetCombinazione: `query GetCombinazione($id: ID!) { combinazione(id: $id) { ...CombinazioneFields } } ${COMBINAZIONE_FIELDS}`,
  CreateCombinazione: `mutation CreateCombinazione($input: CombinazioneInput!) { createCombinazione(input: $input) { ...CombinazioneFields } } ${COMBINAZIONE_FIELDS}`,
  UpdateCombinazione: `mutation UpdateCombinazione($id: ID!, $input: CombinazioneInput!) { updateCombinazione(id: $id, input: $input) { ...CombinazioneFields } } ${COMBINAZIONE_FIELDS}`,
  DeleteCombinazione: `mutation DeleteCombinazione($id: ID!) { deleteCombinazione(id: $id) { ...DeleteCombinazioneResultFields } } ${DELETE_COMBINAZIONE_RESULT_FIELDS}`,
} as const;
