import { tagged } from '../rest-route.js';

/** Outbound webhooks (docs/integrations.md#webhooks): endpoints, their deliveries, rotation. Administrators only. */
export const webhooksRoutes = tagged('Webhooks', [
  {
    method: 'GET',
    path: '/api/webhooks',
    operation: 'ListWebhooks',
    docs: {
      summary: 'The tenant’s webhook endpoints (administrator)',
      description: 'Oldest first; never their secret.',
      errors: ['FORBIDDEN'],
    },
    field: 'webhooks',
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    operation: 'CreateWebhook',
    status: 201,
    docs: {
      summary: 'Register a webhook endpoint (administrator)',
      description:
        'Every event of the tenant whose CloudEvents type is in `eventi|events` (default: all) is POSTed to `url` as its CloudEvent JSON, signed as Standard Webhooks says (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer holds `secret` (`whsec_` + base64), shown only this once. A URL that is or resolves to a private, loopback or link-local address, or does not resolve, is a 400 naming `url`; at most 50 endpoints a tenant.',
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: {
        url: 'https://app.example.com/coperto/webhooks',
        eventi: ['bookings.created', 'bookings.cancelled'],
      },
    },
    field: 'createWebhook',
  },
  {
    method: 'GET',
    path: '/api/webhooks/:id',
    operation: 'GetWebhook',
    docs: { summary: 'Read one webhook endpoint (administrator)', errors: ['FORBIDDEN'] },
    field: 'webhook',
    notFound: 'Webhook',
  },
  {
    method: 'PATCH',
    path: '/api/webhooks/:id',
    operation: 'UpdateWebhook',
    docs: {
      summary: 'Change a webhook endpoint (administrator)',
      description:
        'Only what is sent changes. `attivo|active: false` stops sending (deliveries due meanwhile fail, and can be sent again); switching an endpoint on again clears its failures.',
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: { attivo: true },
    },
    field: 'updateWebhook',
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    operation: 'DeleteWebhook',
    docs: {
      summary: 'Remove a webhook endpoint and its deliveries (administrator)',
      errors: ['FORBIDDEN'],
    },
    field: 'deleteWebhook',
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/ruota',
    operation: 'RuotaSegretoWebhook',
    docs: {
      summary: 'A new signing secret (administrator)',
      description:
        'The answer holds the new `secret`, shown only this once. For 24 hours every request carries two signatures, one with each secret, so the receiver can switch whenever it likes.',
      errors: ['FORBIDDEN'],
    },
    field: 'ruotaSegretoWebhook',
  },
  {
    method: 'GET',
    path: '/api/webhooks/:id/consegne',
    operation: 'ConsegneWebhook',
    docs: {
      summary: 'The endpoint’s deliveries and their attempts (administrator)',
      description:
        'Newest first; `stato` filters (in_attesa, consegnata, fallita), `limite` 1..200 (default 50). Each attempt: time, status code (null without an answer), duration, error, next try.',
      query: {},
      errors: ['FORBIDDEN'],
    },
    field: 'consegneWebhook',
    notFound: 'Webhook',
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/consegne/:consegnaId/reinvia',
    operation: 'ReinviaConsegnaWebhook',
    docs: {
      summary: 'Send a delivery again (administrator)',
      description: 'At once, whatever its state, with a new series of retries if it fails.',
      errors: ['FORBIDDEN'],
    },
    field: 'reinviaConsegnaWebhook',
  },
]);
