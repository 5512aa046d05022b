import type { ApolloServer } from '@apollo/server';
import type { TokenVerifier } from '@coperto/auth';
import { AppError, isErrorCode } from '@coperto/errors';
import type { GatewayContext } from '../graphql/context.js';
import type { CopertoBooking, PartyDay } from './mapping.js';

const BOOKING_FIELDS = 'id startsAt covers state effectiveDurationMinutes customerName customerPhone';

/**
 * The operations the booking server runs through the gateway's own Apollo Server, with the restaurant's Google
 * channel key or a booking's guest token: the same search, booking, change and cancel as every other caller, under
 * the same rights. Not a second booking path.
 */
const OPERATIONS = {
  GoogleCreaPrenotazione: `mutation GoogleCreaPrenotazione($input: PrenotazioneInput!) {
    createPrenotazione(input: $input) { ${BOOKING_FIELDS} }
  }`,
  GooglePrenotazione: `query GooglePrenotazione($id: ID!) { prenotazione(id: $id) { ${BOOKING_FIELDS} } }`,
  GoogleAnnullaPrenotazione: `mutation GoogleAnnullaPrenotazione($id: ID!, $motivo: String) {
    annullaPrenotazione(id: $id, motivo: $motivo) { ${BOOKING_FIELDS} }
  }`,
  GoogleModificaPrenotazione: `mutation GoogleModificaPrenotazione($id: ID!, $input: PrenotazionePatch!) {
    updatePrenotazione(id: $id, input: $input) { ${BOOKING_FIELDS} }
  }`,
  GoogleCapienza: `query GoogleCapienza { tavoli { seats } combinazioni { maxCovers } }`,
  GoogleIntegrazione: `query GoogleIntegrazione { integrazioneGoogle { merchantId channelId } }`,
  GoogleDisponibilita: `query GoogleDisponibilita($dates: [LocalDate!]!, $covers: [Int!]!) {
    disponibilitaPerCoperti(date: $dates, covers: $covers) {
      date covers spotsTotal times { bookingDate durationMinutes spotsOpen }
    }
  }`,
} as const;

type OperationName = keyof typeof OPERATIONS;

/** Dates and party sizes one search operation asks about, at most (prenotazione's MAX_DATES, MAX_PARTIES). */
export const SEARCH_LIMITS = { dates: 31, parties: 50 } as const;

/** Who an operation runs as (`Bearer <token>`), and the Google request it serves (its id in the access log). */
export interface Acting {
  authorization: string;
  requestId: string;
}

/** Runs one of the booking server's operations as the holder of `authorization` (`Bearer <token>`). */
export class GoogleApi {
  constructor(
    private readonly apollo: ApolloServer<GatewayContext>,
    private readonly verifier: TokenVerifier,
  ) {}

  /**
   * The whole day of each of `dates` for each of `parties` (at most SEARCH_LIMITS): one search of each day for all the
   * parties (`disponibilitaPerCoperti`), the places and settings read once for every date.
   */
  async disponibilita(
    auth: Acting,
    dates: readonly string[],
    parties: readonly number[],
  ): Promise<PartyDay[]> {
    return (
      await this.run<{ disponibilitaPerCoperti: PartyDay[] }>(auth, 'GoogleDisponibilita', {
        dates,
        covers: parties,
      })
    ).disponibilitaPerCoperti;
  }

  async create(auth: Acting, input: Record<string, unknown>): Promise<CopertoBooking> {
    return (await this.run<{ createPrenotazione: CopertoBooking }>(auth, 'GoogleCreaPrenotazione', { input }))
      .createPrenotazione;
  }

  async read(auth: Acting, id: string): Promise<CopertoBooking | null> {
    return (await this.run<{ prenotazione: CopertoBooking | null }>(auth, 'GooglePrenotazione', { id }))
      .prenotazione;
  }

  async cancel(auth: Acting, id: string): Promise<CopertoBooking> {
    const motivo = 'Cancelled on Google';
    return (
      await this.run<{ annullaPrenotazione: CopertoBooking }>(auth, 'GoogleAnnullaPrenotazione', {
        id,
        motivo,
      })
    ).annullaPrenotazione;
  }

  async update(auth: Acting, id: string, input: Record<string, unknown>): Promise<CopertoBooking> {
    return (
      await this.run<{ updatePrenotazione: CopertoBooking }>(auth, 'GoogleModificaPrenotazione', {
        id,
        input,
      })
    ).updatePrenotazione;
  }

  /** The largest party any single table or combination seats (the feed's party sizes run up to it). */
  async largestFit(auth: Acting): Promise<number> {
    const data = await this.run<{
      tavoli: Array<{ seats: number }>;
      combinazioni: Array<{ maxCovers: number }>;
    }>(auth, 'GoogleCapienza', {});
    return Math.max(0, ...data.tavoli.map((t) => t.seats), ...data.combinazioni.map((c) => c.maxCovers));
  }

  /** The restaurant's link to Google (administrator), or null. */
  async link(auth: Acting): Promise<{ merchantId: string; channelId: string } | null> {
    return (
      await this.run<{ integrazioneGoogle: { merchantId: string; channelId: string } | null }>(
        auth,
        'GoogleIntegrazione',
        {},
      )
    ).integrazioneGoogle;
  }

  private run<T>(auth: Acting, operationName: OperationName, variables: Record<string, unknown>): Promise<T> {
    return this.execute<T>(auth, operationName, OPERATIONS[operationName], variables);
  }

  private async execute<T>(
    auth: Acting,
    operationName: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<T> {
    const viewer = await this.verifier.verifyAuthorizationHeader(auth.authorization);
    const contextValue: GatewayContext = { viewer, ...auth };
    const response = await this.apollo.executeOperation(
      { query, variables, operationName },
      { contextValue },
    );
    if (response.body.kind !== 'single') throw new Error('Unexpected incremental response');
    const { data, errors } = response.body.singleResult;
    const first = errors?.[0];
    if (first) {
      const code = first.extensions?.code;
      throw new AppError(isErrorCode(code) ? code : 'INTERNAL', first.message, first.extensions?.details);
    }
    return data as T;
  }
}
