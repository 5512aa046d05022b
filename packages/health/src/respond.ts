import type { ServerResponse } from 'node:http';

/** Writes a JSON answer that no cache keeps (`Cache-Control: no-store`); HEAD gets the headers only. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  options: { head?: boolean; headers?: Record<string, string> } = {},
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...options.headers,
  });
  res.end(options.head ? undefined : json);
}
