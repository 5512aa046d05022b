import {
  bodyObject,
  defined,
  pick,
  queryBoolean,
  queryInt,
  queryString,
  type RestRequest,
} from '../request-input.js';
import type { RestRoute } from '../route.js';

/** Floor-plan geometry (decisions.md, Tables). */
const GEOMETRY_FIELDS = ['x', 'y', 'width', 'height', 'shape', 'rotation'];
const TAVOLO_FIELDS = [
  'nome',
  'name',
  'capacita',
  'seats',
  'salaId',
  'roomId',
  'attivo',
  'posizione',
  ...GEOMETRY_FIELDS,
];
const id = (req: RestRequest) => ({ id: req.params.id });
/** Table reads are cached per tenant; the tavolo subgraph invalidates them on every write to `tavoli`. */
const TAVOLI_READS = { scope: 'tavoli', ttlSeconds: 5 };

/** Tables (interface.md 4.1; read-one, create, update, delete per decisions.md). */
export const tavoliRoutes: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/tavoli',
    operation: 'ListTavoli',
    field: 'tavoli',
    cache: TAVOLI_READS,
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
  {
    method: 'GET',
    path: '/api/tavoli/:id',
    operation: 'GetTavolo',
    field: 'tavolo',
    notFound: 'Tavolo',
    cache: TAVOLI_READS,
    variables: id,
  },
  {
    method: 'PATCH',
    path: '/api/tavoli/:id',
    operation: 'UpdateTavolo',
    field: 'updateTavolo',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), [...TAVOLO_FIELDS, 'deviceId']) }),
  },
  {
    method: 'DELETE',
    path: '/api/tavoli/:id',
    operation: 'DeleteTavolo',
    field: 'deleteTavolo',
    variables: id,
  },
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
];
