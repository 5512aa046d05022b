import type { FastifyReply } from 'fastify';

/** Answers JSON that no cache keeps (`Cache-Control: no-store`); fastify leaves the body out for HEAD. */
export function sendJson(
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    })
    .send(JSON.stringify(body));
}
