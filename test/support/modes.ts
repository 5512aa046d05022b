import { serverUrls, uniqueName } from '@coperto/testkit';
import { startDistributed, startEmbedded, type Mode, type Stack } from './stack.js';

/** The run modes every e2e file covers (both are first-class). */
export const MODES: readonly Mode[] = ['embedded', 'distributed'];

export function startStack(mode: Mode): Promise<Stack> {
  if (mode === 'embedded') return startEmbedded();
  const { mongoUrl, natsUrl, redisUrl } = serverUrls();
  return startDistributed({ mongoUrl, natsUrl, redisUrl, database: uniqueName('e2e') });
}
