import { Agent, request } from 'undici';
import { publicOnlyLookup, urlTargetProblem } from './url-guard.js';

/** One attempt gets this long in all: connect, send, answer (its body is read and dropped). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What one attempt to deliver came to. `statusCode` is absent when no answer came. */
export interface AttemptResult {
  statusCode?: number;
  durataMs: number;
  errore?: string;
}

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult>;
  close(): Promise<void>;
}

/**
 * Posts webhooks: one connection pool for every endpoint, redirects never followed (a 3xx is a failed attempt),
 * 10 s for the whole attempt. Unless `allowPrivate`, a host that is or resolves to a private, loopback or
 * link-local address is refused at connection time (the resolved address is the one connected to).
 */
export function createSender(options: { allowPrivate: boolean; timeoutMs?: number }): Sender {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const agent = new Agent({
    connect: { timeout: timeoutMs, ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
    // Per endpoint: a worker keeps up to 128 attempts in flight, so one endpoint's backlog queues at most four
    // deep here and a queued attempt does not spend its 10 s waiting for a connection.
    connections: 32,
  });
  return {
    async send(url, headers, body) {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      try {
        // An IP written in the URL is connected to without a lookup: check it here.
        const literalProblem = options.allowPrivate ? null : await urlTargetProblem(url, async () => []);
        if (literalProblem) return { durataMs: took(), errore: `refused: ${literalProblem}` };
        const answer = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Coperto-Webhooks/1', ...headers },
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await answer.body.dump({ limit: 64 * 1024 }).catch(() => {});
        const ok = answer.statusCode >= 200 && answer.statusCode < 300;
        return {
          statusCode: answer.statusCode,
          durataMs: took(),
          ...(ok ? {} : { errore: `HTTP ${answer.statusCode}` }),
        };
      } catch (error) {
        return { durataMs: took(), errore: describe(error) };
      }
    },
    close: () => agent.close(),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const code = (error as { code?: string }).code ?? cause?.code;
    return [code, cause?.message ?? error.message].filter(Boolean).join(': ').slice(0, 300);
  }
  return String(error).slice(0, 300);
}
