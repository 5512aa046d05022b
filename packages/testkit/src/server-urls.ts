import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** URLs of the servers the vitest global setup started (or took from the environment). */
export function serverUrls(): { mongoUrl: string; natsUrl: string; redisUrl: string } {
  return inject('serverUrls');
}

/** A short random name: test files use it for their own database, subject prefix, key prefix, tenant. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrls: { mongoUrl: string; natsUrl: string; redisUrl: string };
  }
}
