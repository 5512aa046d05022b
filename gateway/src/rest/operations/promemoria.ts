/** Operations behind the promemoria routes. */
const SETTINGS_FIELDS = /* GraphQL */ `
  fragment ImpostazioniPromemoriaFields on ImpostazioniPromemoria {
    promemoria {
      orePrima
    }
    reminders {
      hoursBefore
    }
    customized
    updatedAt
  }
`;

export const promemoriaOperations = {
  GetImpostazioniPromemoria: `query GetImpostazioniPromemoria { impostazioniPromemoria { ...ImpostazioniPromemoriaFields } } ${SETTINGS_FIELDS}`,
  UpdateImpostazioniPromemoria: `mutation UpdateImpostazioniPromemoria($input: ImpostazioniPromemoriaInput!) { updateImpostazioniPromemoria(input: $input) { ...ImpostazioniPromemoriaFields } } ${SETTINGS_FIELDS}`,
} as const;
