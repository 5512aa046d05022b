import { tagged } from '../rest-route.js';

/** Slots and capacity (paths documented in subgraphs/capacity/README.md). */
export const capacityRoutes = tagged('Capacity', [
  {
    method: 'GET',
    path: '/api/capacity/config',
    operation: 'GetSlotConfig',
    docs: { summary: 'Read the slot configuration' },
    field: 'slotConfig',
  },
  {
    method: 'PUT',
    path: '/api/capacity/config',
    operation: 'UpdateSlotConfig',
    docs: {
      summary: 'Change the slot configuration (administrator)',
      description:
        'Each opening interval closes after it opens (`24:00` = midnight) and overlaps no other interval of its day; weekdays are sent once each (a 400 naming `openingHours.<day>…` otherwise). `promemoria|reminders` replaces the reminder rules (at most 5, 1..720 hours, distinct, each with one of `orePrima|hoursBefore`: a rule with neither, or two with the same hours, is a 400 naming it; `[]` = no reminders); the bookings still to come are planned again, with only reminders due after the change (docs/reminders.md).',
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: {
        slotMinutes: 15,
        maxCoversPerSlot: 40,
        turnTimes: [
          { maxCovers: 2, minutes: 90 },
          { maxCovers: 4, minutes: 120 },
          { maxCovers: 8, minutes: 150 },
        ],
        promemoria: [{ orePrima: 24 }, { orePrima: 2 }],
      },
    },
    field: 'updateSlotConfig',
  },
  {
    method: 'GET',
    path: '/api/capacity/categories',
    operation: 'ListProductionCategories',
    docs: { summary: 'List the kitchen categories' },
    field: 'productionCategories',
  },
  {
    method: 'POST',
    path: '/api/capacity/categories',
    operation: 'CreateProductionCategory',
    docs: {
      summary: 'Create a kitchen category (administrator)',
      body: { into: 'input' },
      errors: ['FORBIDDEN', 'DUPLICATE'],
      example: { name: 'Pizza', capacityPerSlot: 20 },
    },
    field: 'createProductionCategory',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/capacity/categories/:id',
    operation: 'GetProductionCategory',
    docs: { summary: 'Read a kitchen category' },
    field: 'productionCategory',
    notFound: 'ProductionCategory',
  },
  {
    method: 'PATCH',
    path: '/api/capacity/categories/:id',
    operation: 'UpdateProductionCategory',
    docs: {
      summary: 'Change a kitchen category (administrator)',
      body: { into: 'input' },
      errors: ['FORBIDDEN', 'DUPLICATE'],
      example: { capacityPerSlot: 25 },
    },
    field: 'updateProductionCategory',
  },
  {
    method: 'DELETE',
    path: '/api/capacity/categories/:id',
    operation: 'DeleteProductionCategory',
    docs: { summary: 'Delete a kitchen category (administrator)', errors: ['FORBIDDEN'] },
    field: 'deleteProductionCategory',
  },
  {
    method: 'GET',
    path: '/api/capacity/slots',
    operation: 'CapacitySlots',
    docs: {
      summary: 'Slots of a day with covers booked and available',
      query: {},
    },
    field: 'slots',
  },
]);
