/**
 * The operations the booking server runs through the gateway's own Apollo Server (api-calls.ts), with the
 * restaurant's Google channel key or a booking's guest token: the same search, booking, change and cancel as every
 * other caller, under the same rights, not a second booking path. Fixed documents,
 * validated against the public API schema by `pnpm codegen` as the REST facade's are (a document that no longer
 * validates fails `pnpm codegen:check`), with their result and variables types in generated/operation-types.ts.
 */

/** A booking as the booking server reads it (mapping.ts `CopertoBooking`). */
const GOOGLE_BOOKING = /* GraphQL */ `
  fragment GoogleBooking on Prenotazione {
    id
    startsAt
    covers
    state
    effectiveDurationMinutes
    customerName
    customerPhone
  }
`;

export const googleOperations = {
  GoogleCreaPrenotazione: /* GraphQL */ `
    mutation GoogleCreaPrenotazione($input: PrenotazioneInput!) {
      createPrenotazione(input: $input) {
        ...GoogleBooking
      }
    }
    ${GOOGLE_BOOKING}
  `,
  GooglePrenotazione: /* GraphQL */ `
    query GooglePrenotazione($id: ID!) {
      prenotazione(id: $id) {
        ...GoogleBooking
      }
    }
    ${GOOGLE_BOOKING}
  `,
  GoogleAnnullaPrenotazione: /* GraphQL */ `
    mutation GoogleAnnullaPrenotazione($id: ID!, $motivo: String) {
      annullaPrenotazione(id: $id, motivo: $motivo) {
        ...GoogleBooking
      }
    }
    ${GOOGLE_BOOKING}
  `,
  GoogleModificaPrenotazione: /* GraphQL */ `
    mutation GoogleModificaPrenotazione($id: ID!, $input: PrenotazionePatch!) {
      updatePrenotazione(id: $id, input: $input) {
        ...GoogleBooking
      }
    }
    ${GOOGLE_BOOKING}
  `,
  GoogleCapienza: /* GraphQL */ `
    query GoogleCapienza {
      tavoli {
        seats
      }
      combinazioni {
        maxCovers
      }
    }
  `,
  GoogleIntegrazione: /* GraphQL */ `
    query GoogleIntegrazione {
      integrazioneGoogle {
        merchantId
        channelId
      }
    }
  `,
  GoogleDisponibilita: /* GraphQL */ `
    query GoogleDisponibilita($dates: [LocalDate!]!, $covers: [Int!]!) {
      disponibilitaPerCoperti(date: $dates, covers: $covers) {
        date
        covers
        spotsTotal
        times {
          bookingDate
          durationMinutes
          spotsOpen
        }
      }
    }
  `,
} as const;

export type GoogleOperationName = keyof typeof googleOperations;
