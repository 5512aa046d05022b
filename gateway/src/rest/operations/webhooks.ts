/** Operations behind the webhook routes (the webhooks subgraph; administrators only). */
import { CONSEGNA_FIELDS, WEBHOOK_FIELDS, WEBHOOK_SEGRETO_FIELDS } from '../generated/fragments.js';

export const webhooksOperations = {
  ListWebhooks: `query ListWebhooks { webhooks { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  GetWebhook: `query GetWebhook($id: ID!) { webhook(id: $id) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  CreateWebhook: `mutation CreateWebhook($input: NuovoWebhook!) { createWebhook(input: $input) { ...WebhookSegretoFields } } ${WEBHOOK_SEGRETO_FIELDS}`,
  UpdateWebhook: `mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) { updateWebhook(id: $id, input: $input) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  DeleteWebhook: `mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  RuotaSegretoWebhook: `mutation RuotaSegretoWebhook($id: ID!) { ruotaSegretoWebhook(id: $id) { ...WebhookSegretoFields } } ${WEBHOOK_SEGRETO_FIELDS}`,
  ConsegneWebhook: `query ConsegneWebhook($id: ID!, $stato: StatoConsegna, $limite: Int) { consegneWebhook(id: $id, stato: $stato, limite: $limite) { ...ConsegnaFields } } ${CONSEGNA_FIELDS}`,
  ReinviaConsegnaWebhook: `mutation ReinviaConsegnaWebhook($id: ID!, $consegnaId: ID!) { reinviaConsegnaWebhook(id: $id, consegnaId: $consegnaId) { ...ConsegnaFields } } ${CONSEGNA_FIELDS}`,
} as const;
