import { bodyObject, pick, queryString, type RestRequest } from '../request-input.js';
import type { RestRoute } from '../route.js';

const CONFIG_FIELDS = ['slotMinutes', 'openingHours', 'maxCoversPerSlot', 'defaultMealMinutes', 'timeZone'];
const CATEGORY_FIELDS = ['name', 'capacityPerSlot'];
const id = (req: RestRequest) => ({ id: req.params.id });

/** Slots and capacity (decisions.md "Capacity"; paths documented in subgraphs/capacity/README.md). */
export const capacityRoutes: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/capacity/config',
    operation: 'GetSlotConfig',
    field: 'slotConfig',
    variables: () => ({}),
  },
  {
    method: 'PUT',
    path: '/api/capacity/config',
    operation: 'UpdateSlotConfig',
    field: 'updateSlotConfig',
    variables: (req) => ({ input: pick(bodyObject(req), CONFIG_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/capacity/categories',
    operation: 'ListProductionCategories',
    field: 'productionCategories',
    variables: () => ({}),
  },
  {
    method: 'POST',
    path: '/api/capacity/categories',
    operation: 'CreateProductionCategory',
    field: 'createProductionCategory',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), CATEGORY_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/capacity/categories/:id',
    operation: 'GetProductionCategory',
    field: 'productionCategory',
    notFound: 'ProductionCategory',
    variables: id,
  },
  {
    method: 'PATCH',
    path: '/api/capacity/categories/:id',
    operation: 'UpdateProductionCategory',
    field: 'updateProductionCategory',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), CATEGORY_FIELDS) }),
  },
  {
    method: 'DELETE',
    path: '/api/capacity/categories/:id',
    operation: 'DeleteProductionCategory',
    field: 'deleteProductionCategory',
    variables: id,
  },
  {
    method: 'GET',
    path: '/api/capacity/slots',
    operation: 'CapacitySlots',
    field: 'slots',
    variables: ({ query }) => ({ date: queryString(query, 'date') }),
  },
];
