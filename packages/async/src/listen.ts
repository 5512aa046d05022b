import type { Server } from 'node:net';

/** Listens on `port` (0: any free one) and `host` (default: every address); resolves to the port bound, rejects on a listen error. */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
