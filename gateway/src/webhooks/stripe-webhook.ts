import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { ApolloServer } from '@apollo/server';
import { isValidTenantId, type ServiceTokenIssuer, type TokenVerifier } from '@coperto/auth';
import { restErrorBody, restErrorFromGraphQL } from '@coperto/errors';
import type { GatewayContext } from '../graphql/context.js';
import { traceOf, withRequestId } from '../http/request-id.js';
import { operations } from '../rest/operations.js';

/** Stripe's default: a signature older than this (seconds) is refused, so a captured request cannot be replayed. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';
/** The longest booking id a payments token names (as the service-token issuer checks). */
const MAX_BOOKING_ID_LENGTH = 128;

export interface StripeWebhookOptions {
  /** STRIPE_WEBHOOK_SECRET (`whsec_…`); unset: every delivery is answered 503 (nothing can be verified). */
  secret: string | undefined;
  /** Mints the payments token garanzie takes the event with (one booking of one tenant, 60 s). */
  tokens: ServiceTokenIssuer;
  verifier: TokenVerifier;
  server: ApolloServer<GatewayContext>;
}

type Data = Record<string, unknown>;
const isRecord = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tenant and booking the service put in the metadata of the event's intent; null for an event not of ours. */
export function bookingOfEvent(event: unknown): { tenantId: string; bookingId: string } | null {
  const object = isRecord(event) && isRecord(event.data) ? event.data.object : null;
  const metadata = isRecord(object) && isRecord(object.metadata) ? object.metadata : null;
  const tenantId = metadata?.tenantId;
  const bookingId = metadata?.bookingId;
  if (typeof tenantId !== 'string' || !isValidTenantId(tenantId)) return null;
  if (typeof bookingId !== 'string' || bookingId.length === 0 || bookingId.length > MAX_BOOKING_ID_LENGTH)
    return null;
  return { tenantId, bookingId };
}

/**
 * `POST /webhooks/stripe` (no JWT): the raw body's `Stripe-Signature` is verified with the webhook secret (Stripe's
 * SDK, tolerance 300 s) or the answer is 400; the event then goes to garanzie (`eventoStripe`) with a payments token
 * for the tenant and booking in its intent's metadata. A well-signed event is answered 2xx whatever it is (an event
 * not of ours, a repeat, a late one: garanzie records it), except 503 while a service it needs is unreachable, so
 * that Stripe delivers it again (docs/payments.md).
 */
export function registerStripeWebhook(app: FastifyInstance, options: StripeWebhookOptions): void {
  void app.register(async (scope) => {
    // Only here: the body as bytes, for the signature (the JSON parser elsewhere never sees this route).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const fail = (status: number, code: Parameters<typeof restErrorBody>[0], message: string) =>
        reply.code(status).send(withRequestId(restErrorBody(code, message), request.raw));
      if (!options.secret)
        return fail(503, 'UNAVAILABLE', 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
      const signature = request.headers['stripe-signature'];
      const body = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(body)) {
        return fail(400, 'VALIDATION_FAILED', 'A Stripe event with its Stripe-Signature header is required');
      }
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(
          body,
          signature,
          options.secret,
          STRIPE_SIGNATURE_TOLERANCE_SECONDS,
        );
      } catch {
        return fail(
          400,
          'VALIDATION_FAILED',
          'Stripe-Signature does not verify (wrong secret, altered or too old)',
        );
      }
      const booking = bookingOfEvent(event);
      if (!booking) return reply.send({ received: true, esito: 'ignored', outcome: 'ignored' });
      const { token } = await options.tokens.paymentsToken(booking);
      const trace = traceOf(request.raw);
      if (trace) trace.tenant = booking.tenantId;
      const contextValue: GatewayContext = {
        viewer: await options.verifier.verify(token),
        authorization: `Bearer ${token}`,
        requestId: trace?.id ?? 'none',
        ...(trace ? { trace } : {}),
      };
      const response = await options.server.executeOperation(
        {
          query: operations.EventoStripe,
          variables: { evento: body.toString('utf8') },
          operationName: 'EventoStripe',
        },
        { contextValue },
      );
      if (response.body.kind !== 'single') throw new Error('Unexpected incremental response');
      const { data, errors } = response.body.singleResult;
      if (errors && errors.length > 0) {
        const failure = restErrorFromGraphQL(errors);
        return reply.code(failure.status).send(withRequestId(failure.body, request.raw));
      }
      const { esito } = (data as { eventoStripe: { esito: string } }).eventoStripe;
      return reply.send({ received: true, esito, outcome: esito });
    });
  });
}
