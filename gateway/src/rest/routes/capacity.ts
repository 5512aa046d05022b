import { bodyObject, pick, queryString, type RestRequest } from '../request-input.js';
import type { RestRoute } from '../route.js';

const CONFIG_FIELDS = [
  'slotMinutes',
  'openingHours',
  'maxCoversPerSlot',
  'defaultMealMinutes',
  'timeZone',
  'turnTimes',
  'reseat',
  'reseatFreezeMinutes',
];
const CATEGORY_FIELDS = ['name', 'capacityPerSlot'];
const id = (req: RestRequest) => ({ id: req.params.id });

/** Slots and capacity (paths documented in subgraphs/capacity/README.md). */
export const capacityRoutes: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/capacity/config',
    operation: 'GetSlotConfig',
    docs: { tag: 'Capacity', summary: 'Read the slot configuration' },
    field: 'slotConfig',
    variables: () => ({}),
  },
  {
    method: 'PUT',
    path: '/api/capacity/config',
    operation: 'UpdateSlotConfig',
    docs: {
      tag: 'Capacity',
      summary: 'Change the slot configuration (administrator)',
      body: { into: 'input', fields: CONFIG_FIELDS },
      errors: ['FORBIDDEN'],
      example: {
        slotMinutes: 15,
        maxCoversPerSlot: 40,
        turnTimes: [
          { maxCovers: 2, minutes: 90 },
          { maxCovers: 4, minutes: 120 },
          { maxCovers: 8, minutes: 150 },
        ],
      },
    },
    field: 'updateSlotConfig',
    variables: (req) => ({ input: pick(bodyObject(req), CONFIG_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/capacity/categories',
    operation: 'ListProductionCategories',
    docs: { tag: 'Capacity', summary: 'List the kitchen categories' },
    field: 'productionCategories',
    variables: () => ({}),
  },
  {
    method: 'POST',
    path: '/api/capacity/categories',
    operation: 'CreateProductionCategory',
    docs: {
      tag: 'Capacity',
      summary: 'Create a kitchen category (administrator)',
      body: { into: 'input', fields: CATEGORY_FIELDS, required: ['name', 'capacityPerSlot'] },
      errors: ['FORBIDDEN', 'DUPLICATE'],
      example: { name: 'Pizza', capacityPerSlot: 20 },
    },
    field: 'createProductionCategory',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), CATEGORY_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/capacity/categories/:id',
    operation: 'GetProductionCategory',
    docs: { tag: 'Capacity', summary: 'Read a kitchen category' },
    field: 'productionCategory',
    notFound: 'ProductionCategory',
    variables: id,
  },
  {
    method: 'PATCH',
    path: '/api/capacity/categories/:id',
    operation: 'UpdateProductionCategory',
    docs: {
      tag: 'Capacity',
      summary: 'Change a kitchen category (administrator)',
      body: { into: 'input', fields: CATEGORY_FIELDS },
      errors: ['FORBIDDEN', 'DUPLICATE'],
      example: { capacityPerSlot: 25 },
    },
    field: 'updateProductionCategory',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), CATEGORY_FIELDS) }),
  },
  {
    method: 'DELETE',
    path: '/api/capacity/categories/:id',
    operation: 'DeleteProductionCategory',
    docs: { tag: 'Capacity', summary: 'Delete a kitchen category (administrator)', errors: ['FORBIDDEN'] },
    field: 'deleteProductionCategory',
    variables: id,
  },
  {
    method: 'GET',
    path: '/api/capacity/slots',
    operation: 'CapacitySlots',
    docs: {
      tag: 'Capacity',
      summary: 'Slots of a day with covers booked and available',
      query: { names: ['date'] },
    },
    field: 'slots',
    variables: ({ query }) => ({ date: queryString(query, 'date') }),
  },
];
