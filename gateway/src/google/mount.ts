import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceTokenIssuer, TokenVerifier } from '@coperto/auth';
import type { SubgraphClient } from '@coperto/server-kit';
import type { GatewayContext } from '../graphql/context.js';
import { GoogleApi } from './api-calls.js';
import type { BasicCredentials } from './basic-auth.js';
import { BookingServer } from './booking-server.js';
import { GoogleRecords } from './canali-calls.js';
import { GoogleTokens } from './google-tokens.js';
import { registerGoogleRoutes } from './routes.js';

/** What the gateway process hands Reserve with Google's booking server (host/app.ts). */
export interface GoogleDeps {
  /** Reaches canali (in-process or over HTTP) for its Google records. */
  canali: SubgraphClient;
  serviceTokens: ServiceTokenIssuer;
  /** RESTAURANT_TIMEZONE: Google's slots are instants, the API's times the restaurant's wall clock. */
  timeZone: string;
  credentials: BasicCredentials | undefined;
}

/** Builds the booking server over the gateway's own Apollo Server and registers its routes. */
export function mountGoogle(
  app: FastifyInstance,
  deps: GoogleDeps & {
    apollo: ApolloServer<GatewayContext>;
    verifier: TokenVerifier;
    authenticate: (request: FastifyRequest) => Promise<GatewayContext>;
  },
): GoogleTokens {
  const tokens = new GoogleTokens(deps.serviceTokens);
  const api = new GoogleApi(deps.apollo, deps.verifier);
  const records = new GoogleRecords(deps.canali, tokens);
  registerGoogleRoutes(app, {
    server: new BookingServer({ api, records, tokens, timeZone: deps.timeZone }),
    api,
    tokens,
    timeZone: deps.timeZone,
    credentials: deps.credentials,
    authenticate: deps.authenticate,
  });
  return tokens;
}
