/** Operations behind the guarantee routes (docs/payments.md) and the Stripe webhook's hand-over. */
import {
  ESITO_EVENTO_STRIPE_FIELDS,
  GARANZIA_FIELDS,
  POLITICA_GARANZIE_FIELDS,
} from '../generated/fragments.js';

export const garanzieOperations = {
  GetPoliticaGaranzie: `query GetPoliticaGaranzie { politicaGaranzie { ...PoliticaGaranzieFields } } ${POLITICA_GARANZIE_FIELDS}`,
  UpdatePoliticaGaranzie: `mutation UpdatePoliticaGaranzie($input: PoliticaGaranzieInput!) { updatePoliticaGaranzie(input: $input) { ...PoliticaGaranzieFields } } ${POLITICA_GARANZIE_FIELDS}`,
  UpdateStripeAccount: `mutation UpdateStripeAccount($accountId: String) { updateStripeAccount(accountId: $accountId) { ...PoliticaGaranzieFields } } ${POLITICA_GARANZIE_FIELDS}`,
  RimborsaGaranziaBloccata: `mutation RimborsaGaranziaBloccata($id: ID!) { rimborsaGaranziaBloccata(id: $id) { ...GaranziaFields } } ${GARANZIA_FIELDS}`,
  ListGaranzieBloccate: `query ListGaranzieBloccate { garanzieBloccate { ...GaranziaFields } } ${GARANZIA_FIELDS}`,
  EventoStripe: `mutation EventoStripe($evento: String!) { eventoStripe(evento: $evento) { ...EsitoEventoStripeFields } } ${ESITO_EVENTO_STRIPE_FIELDS}`,
} as const;
