/** Operations behind the integration routes (Reserve with Google's merchant link, docs/integrations.md). */
import { INTEGRAZIONE_GOOGLE_FIELDS } from '../generated/fragments.js';

export const integrazioniOperations = {
  IntegrazioneGoogle: `query IntegrazioneGoogle { integrazioneGoogle { ...IntegrazioneGoogleFields } } ${INTEGRAZIONE_GOOGLE_FIELDS}`,
  LinkGoogle: `mutation LinkGoogle($input: IntegrazioneGoogleInput!) { linkGoogle(input: $input) { ...IntegrazioneGoogleFields } } ${INTEGRAZIONE_GOOGLE_FIELDS}`,
} as const;
