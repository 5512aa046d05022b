import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAdmin } from '@coperto/auth';
import { NotFoundError, restErrorBody } from '@coperto/errors';
import type { GatewayContext } from '../graphql/context.js';
import { answerOtherMethods } from '../http/method-not-allowed.js';
import { traceOf, withRequestId } from '../http/request-id.js';
import { basicAuthMatcher, type BasicCredentials } from './basic-auth.js';
import type { BookingServer } from './booking-server.js';
import { availabilityFeed, FEED_DAYS } from './feed.js';
import { FEED_PATH, FEED_QUERYSTRING } from './feed-route-docs.js';
import type { GoogleApi } from './api-calls.js';
import type { GoogleTokens } from './google-tokens.js';
import { REQUEST_SCHEMAS } from './wire.js';

/** Where Google's booking server answers (Google appends `/v3/<Method>/` to the partner's base URL). */
export const GOOGLE_PREFIX = '/google/v3';

export interface GoogleRoutesOptions {
  server: BookingServer;
  api: GoogleApi;
  tokens: GoogleTokens;
  timeZone: string;
  /** GOOGLE_BOOKING_USER / GOOGLE_BOOKING_PASSWORD; absent: every booking-server request is 401. */
  credentials: BasicCredentials | undefined;
  /** The gateway's REST authentication (the bearer token; 401 before the body is read). */
  authenticate: (request: FastifyRequest) => Promise<GatewayContext>;
  now?: () => Date;
}

type Method = keyof typeof REQUEST_SCHEMAS;

/**
 * Google's booking server (`/google/v3/...`, HTTP Basic) and the availability feed an administrator downloads
 * (`GET /api/integrazioni/google/feed?giorni=`). docs/integrations.md.
 */
export function registerGoogleRoutes(app: FastifyInstance, options: GoogleRoutesOptions): void {
  const authorized = basicAuthMatcher(options.credentials);
  const requestIdOf = (request: FastifyRequest) => traceOf(request.raw)?.id ?? 'none';
  const basic = async (request: FastifyRequest, reply: FastifyReply) => {
    if (authorized(request.headers.authorization)) return;
    await reply
      .code(401)
      .header('www-authenticate', 'Basic realm="Coperto booking server", charset="UTF-8"')
      .send(
        withRequestId(restErrorBody('UNAUTHENTICATED', 'Google partner credentials required'), request.raw),
      );
  };
  const paths = (method: string) => [`${GOOGLE_PREFIX}/${method}`, `${GOOGLE_PREFIX}/${method}/`];

  for (const url of paths('HealthCheck')) {
    app.get(url, { onRequest: basic }, async () => ({}));
  }
  const handlers: Record<Method, (body: never, requestId: string) => Promise<unknown>> = {
    BatchAvailabilityLookup: (body, id) => options.server.batchAvailabilityLookup(body, id),
    CreateBooking: (body, id) => options.server.createBooking(body, id),
    UpdateBooking: (body, id) => options.server.updateBooking(body, id),
    GetBookingStatus: (body, id) => options.server.getBookingStatus(body, id),
    ListBookings: (body, id) => options.server.listBookings(body, id),
  };
  for (const method of Object.keys(handlers) as Method[]) {
    for (const url of paths(method)) {
      app.post(url, { onRequest: basic, schema: { body: REQUEST_SCHEMAS[method] } }, (request) =>
        handlers[method](request.body as never, requestIdOf(request)),
      );
    }
  }

  app.get(
    FEED_PATH,
    {
      // HEAD is one of the other methods (405), as on every REST route.
      exposeHeadRoute: false,
      onRequest: async (request) => {
        request.gatewayContext = await options.authenticate(request);
        requireAdmin(request.gatewayContext.viewer, "download Google's availability feed");
      },
      schema: { querystring: FEED_QUERYSTRING },
    },
    async (request) => {
      const context = request.gatewayContext!;
      const admin = { authorization: context.authorization, requestId: context.requestId };
      const link = await options.api.link(admin);
      if (!link) throw new NotFoundError('IntegrazioneGoogle', context.viewer.tenantId);
      const { giorni } = request.query as { giorni?: number };
      return availabilityFeed(options, {
        admin,
        link: { ...link, tenantId: context.viewer.tenantId },
        days: giorni ?? FEED_DAYS.default,
        now: options.now?.() ?? new Date(),
      });
    },
  );
  // A documented path like the REST facade's: another method is a 405 with Allow (Schemathesis ST204).
  answerOtherMethods(app, FEED_PATH, new Set(['GET']));
}
