/** Operations behind the guarantee routes (docs/payments.md) and the Stripe webhook's hand-over. */
const POLITICA_FIELDS = /* GraphQL */ `
  fragment PoliticaGaranzieFields on PoliticaGaranzie {
    regole {
      ...RegolaGaranziaFields
    }
    rules {
      ...RegolaGaranziaFields
    }
    scadenzaMinuti
    dueMinutes
    penali {
      ...PenaleGaranziaFields
    }
    penalties {
      ...PenaleGaranziaFields
    }
    percentualeNoShow
    noShowPercent
    stripeAccount
    stripeConfigured
  }
  fragment RegolaGaranziaFields on RegolaGaranzia {
    tipo
    type
    minCoperti
    minCovers
    giorni
    weekdays
    dalle
    from
    alle
    to
    importoPerCoperto
    amountPerCover
    valuta
    currency
  }
  fragment PenaleGaranziaFields on PenaleGaranzia {
    oreAlmeno
    minHours
    percentuale
    percent
  }
`;

/** A guarantee as staff read it (the stuck list, a refund); a booking's adds what its payment is taken with. */
export const GARANZIA_FIELDS = /* GraphQL */ `
  fragment GaranziaFields on Garanzia {
    prenotazioneId
    bookingId
    tipo
    type
    modo
    mode
    stato
    status
    importo
    amount
    valuta
    currency
    scadenza
    dueAt
    stripeIntentId
    addebitato
    charged
    rimborsato
    refunded
    motivo
    reason
    createdAt
    updatedAt
  }
`;

export const garanzieOperations = {
  GetPoliticaGaranzie: `query GetPoliticaGaranzie { politicaGaranzie { ...PoliticaGaranzieFields } } ${POLITICA_FIELDS}`,
  UpdatePoliticaGaranzie: `mutation UpdatePoliticaGaranzie($input: PoliticaGaranzieInput!) { updatePoliticaGaranzie(input: $input) { ...PoliticaGaranzieFields } } ${POLITICA_FIELDS}`,
  UpdateStripeAccount: `mutation UpdateStripeAccount($accountId: String) { updateStripeAccount(accountId: $accountId) { ...PoliticaGaranzieFields } } ${POLITICA_FIELDS}`,
  RimborsaGaranziaBloccata: `mutation RimborsaGaranziaBloccata($id: ID!) { rimborsaGaranziaBloccata(id: $id) { ...GaranziaFields } } ${GARANZIA_FIELDS}`,
  ListGaranzieBloccate: `query ListGaranzieBloccate { garanzieBloccate { ...GaranziaFields } } ${GARANZIA_FIELDS}`,
  EventoStripe: `mutation EventoStripe($evento: String!) { eventoStripe(evento: $evento) { esito outcome } }`,
} as const;
