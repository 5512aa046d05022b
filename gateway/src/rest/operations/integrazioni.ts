/** Operations behind the integration routes (Reserve with Google's merchant link, docs/integrations.md). */
const INTEGRAZIONE_GOOGLE_FIELDS = /* GraphQL */ `
  fragment IntegrazioneGoogleFields on IntegrazioneGoogle {
    merchantId
    canaleId
    channelId
    linkedAt
  }
`;

export const integrazioniOperations = {
  IntegrazioneGoogle: `query IntegrazioneGoogle { integrazioneGoogle { ...IntegrazioneGoogleFields } } ${INTEGRAZIONE_GOOGLE_FIELDS}`,
  LinkGoogle: `mutation LinkGoogle($input: IntegrazioneGoogleInput!) { linkGoogle(input: $input) { ...IntegrazioneGoogleFields } } ${INTEGRAZIONE_GOOGLE_FIELDS}`,
} as const;
