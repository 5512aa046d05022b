import { createHealthServer } from '../src/index.js';
import type { HealthServer, HealthServerOptions } from '../src/index.js';

export const identity = {
  nodeId: 'tavolo-test-1',
  nodeType: 'tavolo',
  version: '1.2.3',
  frameworkVersion: 'coperto-0.1.0',
  services: () => ['tavolo', 'sala'],
};

export interface Started {
  server: HealthServer;
  base: string;
  /** The server's fastify instance, for `inject`. */
  http: HealthServer['http'];
}

/** Starts health servers on 127.0.0.1:0 and closes all of them with `closeAll`. */
export function healthServers() {
  const open: HealthServer[] = [];
  return {
    async start(options: Partial<HealthServerOptions> = {}, host = '127.0.0.1'): Promise<Started> {
      const server = createHealthServer({ ...identity, checkCacheMs: 0, ...options });
      open.push(server);
      const { port } = await server.listen(0, host);
      return { server, http: server.http, base: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
    },
    async closeAll() {
      await Promise.all(open.splice(0).map((s) => s.close()));
    },
  };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function getJson(url: string, init?: RequestInit): Promise<JsonResponse> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export { deferred } from '@coperto/testkit';

/** Polls `condition` until true, for at most `ms`. */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A promise that never settles (a hung dependency). */
export const never = <T>() => new Promise<T>(() => undefined);
