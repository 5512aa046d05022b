import type { ApolloServer } from '@apollo/server';
import type { TokenVerifier } from '@coperto/auth';
import { AppError, isErrorCode } from '@coperto/errors';
import type { GatewayContext } from '../graphql/context.js';
import type {
  GoogleOperationResults,
  GoogleOperationVariables,
  PrenotazioneInput,
  PrenotazionePatch,
} from './generated/operation-types.js';
import type { CopertoBooking, PartyDay } from './mapping.js';
import { googleOperations, type GoogleOperationName } from './operations.js';

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
    const search = await this.run(auth, 'GoogleDisponibilita', { dates: [...dates], covers: [...parties] });
    return search.disponibilitaPerCoperti;
  }

  async create(auth: Acting, input: PrenotazioneInput): Promise<CopertoBooking> {
    return (await this.run(auth, 'GoogleCreaPrenotazione', { input })).createPrenotazione;
  }

  async read(auth: Acting, id: string): Promise<CopertoBooking | null> {
    return (await this.run(auth, 'GooglePrenotazione', { id })).prenotazione;
  }

  async cancel(auth: Acting, id: string): Promise<CopertoBooking> {
    const motivo = 'Cancelled on Google';
    return (await this.run(auth, 'GoogleAnnullaPrenotazione', { id, motivo })).annullaPrenotazione;
  }

  async update(auth: Acting, id: string, input: PrenotazionePatch): Promise<CopertoBooking> {
    return (await this.run(auth, 'GoogleModificaPrenotazione', { id, input })).updatePrenotazione;
  }

  /** The largest party any single table or combination seats (the feed's party sizes run up to it). */
  async largestFit(auth: Acting): Promise<number> {
    const data = await this.run(auth, 'GoogleCapienza', {});
    return Math.max(0, ...data.tavoli.map((t) => t.seats), ...data.combinazioni.map((c) => c.maxCovers));
  }

  /** The restaurant's link to Google (administrator), or null. */
  async link(auth: Acting): Promise<{ merchantId: string; channelId: string } | null> {
    return (await this.run(auth, 'GoogleIntegrazione', {})).integrazioneGoogle;
  }

  /** Runs the operation `operationName`: its variables and result typed by codegen (generated/operation-types.ts). */
  private async run<N extends GoogleOperationName>(
    auth: Acting,
    operationName: N,
    variables: GoogleOperationVariables[N],
  ): Promise<GoogleOperationResults[N]> {
    const query = googleOperations[operationName];
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
    // An execution without errors has the data its document selects (the generated type).
    return data as GoogleOperationResults[N];
  }
}
