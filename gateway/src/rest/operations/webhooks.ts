/** Operations behind the webhook routes (the webhooks subgraph; administrators only). */
const WEBHOOK_FIELDS = /* GraphQL */ `
  fragment WebhookFields on Webhook {
    id
    url
    eventi
    events
    attivo
    active
    inErroreDa
    failingSince
    ultimaConsegnaAt
    lastDeliveredAt
    disattivatoAt
    disabledAt
    createdAt
    updatedAt
  }
`;

const DELIVERY_FIELDS = /* GraphQL */ `
  fragment ConsegnaFields on ConsegnaWebhook {
    id
    webhookId
    eventoId
    eventId
    tipo
    type
    stato
    state
    prossimoTentativoAt
    nextAttemptAt
    consegnataAt
    deliveredAt
    createdAt
    tentativi {
      ...TentativoFields
    }
    attempts {
      ...TentativoFields
    }
  }
  fragment TentativoFields on TentativoWebhook {
    at
    statusCode
    durataMs
    durationMs
    errore
    error
    prossimoTentativoAt
    nextAttemptAt
  }
`;

export const webhooksOperations = {
  ListWebhooks: `query ListWebhooks { webhooks { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  GetWebhook: `query GetWebhook($id: ID!) { webhook(id: $id) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  CreateWebhook: `mutation CreateWebhook($input: NuovoWebhook!) { createWebhook(input: $input) { ...WebhookFields secret } } ${WEBHOOK_FIELDS}`,
  UpdateWebhook: `mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) { updateWebhook(id: $id, input: $input) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  DeleteWebhook: `mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  RuotaSegretoWebhook: `mutation RuotaSegretoWebhook($id: ID!) { ruotaSegretoWebhook(id: $id) { ...WebhookFields secret } } ${WEBHOOK_FIELDS}`,
  ConsegneWebhook: `query ConsegneWebhook($id: ID!, $stato: StatoConsegna, $limite: Int) { consegneWebhook(id: $id, stato: $stato, limite: $limite) { ...ConsegnaFields } } ${DELIVERY_FIELDS}`,
  ReinviaConsegnaWebhook: `mutation ReinviaConsegnaWebhook($id: ID!, $consegnaId: ID!) { reinviaConsegnaWebhook(id: $id, consegnaId: $consegnaId) { ...ConsegnaFields } } ${DELIVERY_FIELDS}`,
} as const;
