import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** Starts listening (port 0 picks a free port; the service default is 3030, chosen by the caller). */
  listen(port: number, host?: string): Promise<{ port: number }>;
  /** Stops listening and closes open connections. Idempotent. */
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string, head: boolean) {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(head ? undefined : body);
}

async function handle(metrics: Metrics, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = 'text/plain; charset=utf-8';
  const head = req.method === 'HEAD';
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics') return send(res, 404, text, 'Not found: the metrics are at /metrics\n', head);
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, text, 'Method not allowed\n', false);
  }
  try {
    const { contentType, body } = await metrics.scrape();
    send(res, 200, contentType, body, head);
  } catch {
    send(res, 500, text, 'Metrics collection failed\n', head);
  }
}

/** A plain node:http server exposing `GET /metrics` (Prometheus text format) for one `Metrics`. */
export function createMetricsServer(metrics: Metrics): MetricsServer {
  const server = createServer((req, res) => void handle(metrics, req, res));
  let closing: Promise<void> | undefined;
  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve({ port: (server.address() as AddressInfo).port });
        });
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
