import type { DocumentedRoute } from '../pages/openapi/document.js';
import { FEED_DAYS } from './feed.js';

export const FEED_PATH = '/api/integrazioni/google/feed';

/** The feed's query (validated by the route, listed by the OpenAPI document). */
export const FEED_QUERYSTRING = {
  type: 'object',
  properties: {
    giorni: {
      type: 'integer',
      minimum: FEED_DAYS.min,
      maximum: FEED_DAYS.max,
      description: `Days from today (default ${FEED_DAYS.default})`,
    },
  },
  additionalProperties: false,
} as const;

const int64 = { type: 'string', pattern: '^[0-9]+$' };

/** `GET /api/integrazioni/google/feed` in the OpenAPI document. */
export const FEED_ROUTE_DOCS: DocumentedRoute = {
  method: 'GET',
  path: FEED_PATH,
  operationId: 'GoogleAvailabilityFeed',
  tag: 'Integrazioni',
  summary: "Reserve with Google's availability feed",
  description:
    "Administrator only; 404 when the restaurant has no link to Google (`PUT /api/integrazioni/google`). Google's availability feed (JSON) for the next `giorni` days: every time the availability search offers any party, for every party size from 1 to the largest any table or combination seats, with `spots_open` 1 when that party can book it, else 0, and `spots_total` 1. The same search the booking page and Google's BatchAvailabilityLookup use.",
  querystring: FEED_QUERYSTRING,
  errors: ['NOT_FOUND'],
  response: {
    type: 'object',
    required: ['metadata', 'service_availability'],
    properties: {
      metadata: {
        type: 'object',
        required: ['processing_instruction', 'shard_number', 'total_shards', 'generation_timestamp'],
        properties: {
          processing_instruction: { type: 'string', enum: ['PROCESS_AS_COMPLETE'] },
          shard_number: { type: 'integer' },
          total_shards: { type: 'integer' },
          generation_timestamp: int64,
        },
      },
      service_availability: {
        type: 'array',
        items: {
          type: 'object',
          required: ['availability'],
          properties: {
            availability: {
              type: 'array',
              items: {
                type: 'object',
                required: [
                  'merchant_id',
                  'service_id',
                  'start_sec',
                  'duration_sec',
                  'spots_total',
                  'spots_open',
                  'resources',
                ],
                properties: {
                  merchant_id: { type: 'string' },
                  service_id: { type: 'string' },
                  start_sec: int64,
                  duration_sec: int64,
                  spots_total: { type: 'integer' },
                  spots_open: { type: 'integer' },
                  resources: {
                    type: 'object',
                    required: ['party_size'],
                    properties: { party_size: { type: 'integer' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
