/** Operations behind the table routes. */
import { COMBINAZIONE_FIELDS, LOCK_FIELDS, TAVOLO_FIELDS } from '../generated/fragments.js';

export const tavoliOperations = {
  ListTavoli: `query ListTavoli($filter: TavoliFilter) { tavoli(filter: $filter) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  GetTavolo: `query GetTavolo($id: ID!) { tavolo(id: $id) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  CreateTavolo: `mutation CreateTavolo($input: TavoloInput!) { createTavolo(input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  UpdateTavolo: `mutation UpdateTavolo($id: ID!, $input: TavoloPatch!) { updateTavolo(id: $id, input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  DeleteTavolo: `mutation DeleteTavolo($id: ID!) { deleteTavolo(id: $id) { id deleted } }`,
  SetTavoloStatus: `mutation SetTavoloStatus($id: ID!, $input: TableStatusInput!) { setTavoloStatus(id: $id, input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  LockTavolo: `mutation LockTavolo($id: ID!, $input: LockInput!) { lockTavolo(id: $id, input: $input) { ...LockFields } } ${LOCK_FIELDS}`,
  UnlockTavolo: `mutation UnlockTavolo($id: ID!, $input: UnlockInput!) { unlockTavolo(id: $id, input: $input) { tableId released } }`,
  ForceUnlockTavolo: `mutation ForceUnlockTavolo($id: ID!) { forceUnlockTavolo(id: $id) { tableId released } }`,
  VerificaDisponibilita: `query VerificaDisponibilita($input: DisponibilitaInput!) {
    verificaDisponibilita(input: $input) {
      tavoliDisponibili { ...TavoloFields } availableTables { ...TavoloFields } capacitaTotale totalCapacity
      combinazioniDisponibili { ...CombinazioneFields } availableCombinations { ...CombinazioneFields }
    }
  } ${TAVOLO_FIELDS} ${COMBINAZIONE_FIELDS}`,
} as const;
