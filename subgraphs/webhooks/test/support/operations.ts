// The GraphQL operations the tests send, and the shapes they read back.
export const WEBHOOK_FIELDS =
  'id url eventi events attivo active inErroreDa ultimaConsegnaAt disattivatoAt secret';

export const CREATE = `mutation($input: NuovoWebhook!) { createWebhook(input: $input) { ${WEBHOOK_FIELDS} } }`;
export const UPDATE = `mutation($id: ID!, $input: WebhookPatch!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`;
export const DELETE = `mutation($id: ID!) { deleteWebhook(id: $id) { id } }`;
export const ROTATE = `mutation($id: ID!) { ruotaSegretoWebhook(id: $id) { ${WEBHOOK_FIELDS} } }`;
export const LIST = `{ webhooks { ${WEBHOOK_FIELDS} } }`;
export const GET = `query($id: ID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`;
export const DELIVERIES = `query($id: ID!, $stato: StatoConsegna) { consegneWebhook(id: $id, stato: $stato, limite: 200) {
  id eventoId tipo stato prossimoTentativoAt consegnataAt tentativi { at statusCode durataMs errore prossimoTentativoAt } } }`;
export const RESEND = `mutation($id: ID!, $c: ID!) { reinviaConsegnaWebhook(id: $id, consegnaId: $c) { id stato } }`;

export interface WebhookAnswer {
  id: string;
  url: string;
  eventi: string[];
  attivo: boolean;
  inErroreDa: string | null;
  disattivatoAt: string | null;
  secret: string | null;
}

export interface DeliveryAnswer {
  id: string;
  eventoId: string;
  tipo: string;
  stato: 'in_attesa' | 'consegnata' | 'fallita';
  prossimoTentativoAt: string | null;
  tentativi: Array<{
    at: string;
    statusCode: number | null;
    durataMs: number;
    errore: string | null;
    prossimoTentativoAt: string | null;
  }>;
}
