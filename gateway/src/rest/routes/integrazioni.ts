import { tagged } from '../rest-route.js';

/** Integrations (administrator only): Reserve with Google's merchant link, docs/integrations.md. */
export const integrazioniRoutes = tagged('Integrazioni', [
  {
    method: 'GET',
    path: '/api/integrazioni/google',
    operation: 'IntegrazioneGoogle',
    docs: {
      summary: "The restaurant's link to Reserve with Google",
      description:
        'Administrator only. 404 when the restaurant has no link (or deleted the Google channel, which disconnects it).',
      errors: ['NOT_FOUND'],
    },
    field: 'integrazioneGoogle',
    notFound: 'IntegrazioneGoogle',
  },
  {
    method: 'PUT',
    path: '/api/integrazioni/google',
    operation: 'LinkGoogle',
    docs: {
      summary: 'Link the restaurant to Reserve with Google',
      description:
        "Administrator only. `merchantId`: the merchant id the restaurant has with Google (the one in the merchant feed). Google's booking server then finds this restaurant by it; its bookings go through a booking channel named Google (`canaleId|channelId`), origine `google`. Another merchant id replaces the previous one; a merchant id another restaurant linked is 409 `DUPLICATE`.",
      body: { into: 'input' },
      errors: ['DUPLICATE'],
      example: { merchantId: 'trattoria-da-mario' },
    },
    field: 'linkGoogle',
  },
]);
