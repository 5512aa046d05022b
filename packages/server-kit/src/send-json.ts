import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Sends JSON that is already serialized (e.g. a cached answer), as text or as its UTF-8 bytes. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  payload: string | Buffer,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}
