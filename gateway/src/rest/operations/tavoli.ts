/** Operations behind the table routes. */
import {
  DELETE_TAVOLO_RESULT_FIELDS,
  DISPONIBILITA_FIELDS,
  LOCK_FIELDS,
  TAVOLO_FIELDS,
  UNLOCK_RESULT_FIELDS,
} from '../generated/fragments.js';

export const tavoliOperations = {
  ListTavoli: `query ListTavoli($filter: TavoliFilter) { tavoli(filter: $filter) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  GetTavolo: `query GetTavolo($id: ID!) { tavolo(id: $id) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  CreateTavolo: `mutation CreateTavolo($input: TavoloInput!) { createTavolo(input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  UpdateTavolo: `mutation UpdateTavolo($id: ID!, $input: TavoloPatch!) { updateTavolo(id: $id, input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  DeleteTavolo: `mutation DeleteTavolo($id: ID!) { deleteTavolo(id: $id) { ...DeleteTavoloResultFields } } ${DELETE_TAVOLO_RESULT_FIELDS}`,
  SetTavoloStatus: `mutation SetTavoloStatus($id: ID!, $input: TableStatusInput!) { setTavoloStatus(id: $id, input: $input) { ...TavoloFields } } ${TAVOLO_FIELDS}`,
  LockTavolo: `mutation LockTavolo($id: ID!, $input: LockInput!) { lockTavolo(id: $id, input: $input) { ...LockFields } } ${LOCK_FIELDS}`,
  UnlockTavolo: `mutation UnlockTavolo($id: ID!, $input: UnlockInput!) { unlockTavolo(id: $id, input: $input) { ...UnlockResultFields } } ${UNLOCK_RESULT_FIELDS}`,
  ForceUnlockTavolo: `mutation ForceUnlockTavolo($id: ID!) { forceUnlockTavolo(id: $id) { ...UnlockResultFields } } ${UNLOCK_RESULT_FIELDS}`,
  VerificaDisponibilita: `query VerificaDisponibilita($input: DisponibilitaInput!) { verificaDisponibilita(input: $input) { ...DisponibilitaFields } } ${DISPONIBILITA_FIELDS}`,
} as const;
