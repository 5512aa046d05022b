import { operations, type OperationName } from './operations.js';
import { bodyObject, defined, pick, queryBoolean, queryInt, queryString, type RestRequest } from './request-input.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented REST path = one named GraphQL operation run in-process through the gateway. */
export interface RestRoute {
  method: HttpMethod;
  /** Path pattern; `:name` segments become `params.name`. Static segments win over parameters. */
  path: string;
  operation: OperationName;
  variables: (req: RestRequest) => Record<string, unknown>;
  /** The response body: the operation's root field. */
  field: string;
  /** Success status (default 200). */
  status?: number;
  /** A null result means the id does not exist (in this tenant): 404 for this entity. */
  notFound?: string;
}

const TAVOLO_FIELDS = ['nome', 'name', 'capacita', 'seats', 'salaId', 'roomId', 'attivo', 'posizione'];
const SALA_FIELDS = ['codice', 'descrizione', 'width', 'height'];
const id = (req: RestRequest) => ({ id: req.params.id });

export const routes: readonly RestRoute[] = [
  // Tables (interface.md 4.1; read-one, create, update, delete per decisions.md)
  {
    method: 'GET',
    path: '/api/tavoli',
    operation: 'ListTavoli',
    field: 'tavoli',
    variables: ({ query }) => ({
      filter: defined({
        attivo: queryBoolean(query, 'attivo'),
        capacitaMin: queryInt(query, 'capacitaMin'),
        posizione: queryString(query, 'posizione'),
        salaId: queryString(query, 'salaId'),
      }),
    }),
  },
  {
    method: 'POST',
    path: '/api/tavoli/verifica-disponibilita',
    operation: 'VerificaDisponibilita',
    field: 'verificaDisponibilita',
    variables: (req) => ({
      input: pick(bodyObject(req), ['dataOra', 'numeroPersone', 'durataMediaPasto', 'salaId']),
    }),
  },
  {
    method: 'POST',
    path: '/api/tavoli',
    operation: 'CreateTavolo',
    field: 'createTavolo',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), TAVOLO_FIELDS) }),
  },
  { method: 'GET', path: '/api/tavoli/:id', operation: 'GetTavolo', field: 'tavolo', notFound: 'Tavolo', variables: id },
  {
    method: 'PATCH',
    path: '/api/tavoli/:id',
    operation: 'UpdateTavolo',
    field: 'updateTavolo',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), [...TAVOLO_FIELDS, 'deviceId']) }),
  },
  { method: 'DELETE', path: '/api/tavoli/:id', operation: 'DeleteTavolo', field: 'deleteTavolo', variables: id },
  {
    method: 'PUT',
    path: '/api/tavoli/:id/status',
    operation: 'SetTavoloStatus',
    field: 'setTavoloStatus',
    variables: (req) => ({
      ...id(req),
      input: pick(bodyObject(req), ['status', 'orderId', 'pax', 'totalAmount', 'deviceId']),
    }),
  },
  {
    method: 'POST',
    path: '/api/tavoli/:id/lock',
    operation: 'LockTavolo',
    field: 'lockTavolo',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), ['deviceId', 'operatorName', 'ttl']) }),
  },
  {
    method: 'POST',
    path: '/api/tavoli/:id/unlock',
    operation: 'UnlockTavolo',
    field: 'unlockTavolo',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), ['deviceId']) }),
  },
  {
    method: 'DELETE',
    path: '/api/tavoli/:id/lock',
    operation: 'ForceUnlockTavolo',
    field: 'forceUnlockTavolo',
    variables: id,
  },
  // Rooms (interface.md 4.2; read-one, update, delete per decisions.md)
  { method: 'GET', path: '/api/sale', operation: 'ListSale', field: 'sale', variables: () => ({}) },
  {
    method: 'POST',
    path: '/api/sale',
    operation: 'CreateSala',
    field: 'createSala',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), SALA_FIELDS) }),
  },
  { method: 'GET', path: '/api/sale/:id', operation: 'GetSala', field: 'sala', notFound: 'Sala', variables: id },
  {
    method: 'PATCH',
    path: '/api/sale/:id',
    operation: 'UpdateSala',
    field: 'updateSala',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), SALA_FIELDS) }),
  },
  { method: 'DELETE', path: '/api/sale/:id', operation: 'DeleteSala', field: 'deleteSala', variables: id },
];

export function operationDocument(route: RestRoute): string {
  return operations[route.operation];
}
