import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request stripe-mock did not accept: Stripe's API description refused what the service sent. */
export interface StripeRefusal {
  method: string;
  path: string;
  status: number;
  /** The start of stripe-mock's answer (its error message names the parameter). */
  answer: string;
}

/** One request the service made, as it reached Stripe's API (kept when the watch was asked to keep them). */
export interface StripeRequest {
  method: string;
  path: string;
  /** The `Idempotency-Key` header (Stripe applies a key's request once, whatever the retries). */
  idempotencyKey: string | null;
  /** The form-encoded body (`amount=1000&metadata[bookingId]=…`). */
  body: string;
  status: number;
}

export interface StripeMockWatch {
  /** Where the service is pointed (STRIPE_API_BASE): every request passes through to stripe-mock. */
  readonly url: string;
  /** Requests passed through so far. */
  calls(): number;
  refusals(): readonly StripeRefusal[];
  /** Every request answered so far, in the order they were answered (empty unless `keepRequests`). */
  requests(): readonly StripeRequest[];
  stop(): Promise<void>;
}

/** How much of a refusal's answer is kept. */
const ANSWER_KEPT = 600;

/**
 * A pass-through in front of stripe-mock that keeps every request it answered 4xx or 5xx (or could not be reached
 * for). stripe-mock validates each request against Stripe's OpenAPI description; the Stripe SDK throws on a
 * refusal, but a caller that catches and carries on (a refund tried at settlement) would hide it. The vitest global
 * setup fails the run when any was kept, so "stripe-mock refused none of the service's requests" holds for the
 * whole suite.
 */
export async function watchStripeMock(
  target: string,
  options: { keepRequests?: boolean } = {},
): Promise<StripeMockWatch> {
  const upstream = new URL(target);
  let calls = 0;
  const refusals: StripeRefusal[] = [];
  const kept: StripeRequest[] = [];
  const server = createServer((incoming, reply) => {
    calls++;
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: upstream.host };
    let body = '';
    if (options.keepRequests) incoming.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    const forward = request(
      { hostname: upstream.hostname, port: upstream.port, method, path, headers },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (options.keepRequests) {
          const key = incoming.headers['idempotency-key'];
          kept.push({ method, path, idempotencyKey: typeof key === 'string' ? key : null, body, status });
        }
        reply.writeHead(status, answer.headers);
        if (status < 400) {
          answer.pipe(reply);
          return;
        }
        let refused = '';
        answer.on('data', (chunk: Buffer) => {
          if (refused.length < ANSWER_KEPT) refused += chunk.toString('utf8');
          reply.write(chunk);
        });
        answer.on('end', () => {
          refusals.push({ method, path, status, answer: refused.slice(0, ANSWER_KEPT) });
          reply.end();
        });
      },
    );
    forward.on('error', (error) => {
      refusals.push({ method, path, status: 502, answer: `stripe-mock unreachable: ${error.message}` });
      if (!reply.headersSent) reply.writeHead(502);
      reply.end();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    refusals: () => refusals,
    requests: () => kept,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the global teardown prints when stripe-mock refused requests. */
export function describeRefusals(refusals: readonly StripeRefusal[]): string {
  return [
    `stripe-mock refused ${refusals.length} of the service's requests (Stripe's API description):`,
    ...refusals
      .slice(0, 20)
      .map((r) => `  ${r.method} ${r.path} → ${r.status}: ${r.answer.replace(/\s+/g, ' ')}`),
  ].join('\n');
}
