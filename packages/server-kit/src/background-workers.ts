import type { Subgraph } from './subgraph.js';

export interface RunningWorkers {
  /** Stops every worker, each once its work in hand is done. */
  stop(): Promise<void>;
}

/** Starts the background workers the subgraphs declare (after their `init` and event consumers). */
export function startBackgroundWorkers(subgraphs: readonly Subgraph<unknown>[]): RunningWorkers {
  const workers = subgraphs.flatMap((s) => s.workers ?? []);
  for (const worker of workers) worker.start();
  return { stop: async () => void (await Promise.allSettled(workers.map((w) => w.stop()))) };
}
