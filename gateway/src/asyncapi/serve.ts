import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonText } from '@coperto/server-kit';

/** `GET /asyncapi.json` (no auth): the AsyncAPI document, built once. False for any other request. */
export function createAsyncApiHandler(document: () => Record<string, unknown>) {
  let json: string | undefined;
  return function handleAsyncApi(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/asyncapi.json') return false;
    json ??= JSON.stringify(document());
    sendJsonText(res, 200, json);
    return true;
  };
}
