/**
 * The named GraphQL operations behind the REST facade: one fixed document per route, so the gateway's
 * query-plan cache always hits. The REST responses are exactly what these select.
 */
const TAVOLO_FIELDS = /* GraphQL */ `
  fragment TavoloFields on Tavolo {
    id nome name capacita seats stato status salaId roomId attivo posizione orderId pax totalAmount
    lock { tableId deviceId operatorName acquiredAt expiresAt ttl }
    createdAt updatedAt
  }
`;

const SALA_FIELDS = /* GraphQL */ `
  fragment SalaFields on Sala { id codice descrizione name width height createdAt updatedAt }
`;

const LOCK_FIELDS = /* GraphQL */ `
  fragment LockFields on TableLock { tableId deviceId operatorName acquiredAt expiresAt ttl }
`;

export const operations = {
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
    }
  } ${TAVOLO_FIELDS}`,
  ListSale: `query ListSale { sale { ...SalaFields } } ${SALA_FIELDS}`,
  GetSala: `query GetSala($id: ID!) { sala(id: $id) { ...SalaFields } } ${SALA_FIELDS}`,
  CreateSala: `mutation CreateSala($input: SalaInput!) { createSala(input: $input) { ...SalaFields } } ${SALA_FIELDS}`,
  UpdateSala: `mutation UpdateSala($id: ID!, $input: SalaPatch!) { updateSala(id: $id, input: $input) { ...SalaFields } } ${SALA_FIELDS}`,
  DeleteSala: `mutation DeleteSala($id: ID!) { deleteSala(id: $id) { id deleted } }`,
} as const;

export type OperationName = keyof typeof operations;
