import { COMBINAZIONE_FIELDS } from './combinazioni.js';

/** Operations behind the table routes. */
const LOCK_FIELDS = /* GraphQL */ `
  fragment LockFields on TableLock {
    tableId
    deviceId
    operatorName
    acquiredAt
    expiresAt
    ttl
  }
`;

/**
 * A table as every table route answers it (and the read cache's list of table fields: cacheable-fields.ts).
 * The one list of a table's fields outside the schema: gateway/test/rest-fragments.test.ts fails when the schema has a
 * field of Tavolo this neither selects nor names as left out.
 */
export const TAVOLO_FIELDS = /* GraphQL */ `
  fragment TavoloFields on Tavolo {
    id
    nome
    name
    capacita
    seats
    stato
    status
    salaId
    roomId
    attivo
    posizione
    x
    y
    width
    height
    shape
    rotation
    orderId
    pax
    totalAmount
    lock {
      ...LockFields
    }
    createdAt
    updatedAt
  }
  ${LOCK_FIELDS}
`;

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
