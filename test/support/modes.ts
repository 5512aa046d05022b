import { serverUrls, uniqueName } from '@coperto/testkit';
import { startDistributed, startEmbedded, type Mode, type Stack } from './stack.js';

/** The run modes every e2e file covers (both are first-class). */
export const MODES: readonly Mode[] = ['embedded', 'distributed'];

/** `extraEnv`: settings for every process of the stack (e.g. credentials a feature needs). */
export function startStack(mode: Mode, extraEnv: Record<string, string> = {}): Promise<Stack> {
  if (mode === 'embedded') return startEmbedded(extraEnv);
  const { mongoUrl, natsUrl, redisUrl } = serverUrls();
  return startDistributed({ mongoUrl, natsUrl, redisUrl, database: uniqueName('e2e'), extraEnv });
}
