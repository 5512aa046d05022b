import type { Subgraph } from './subgraph.js';

/** Starts the subgraphs' background workers; `stop` stops them all (each once its work in hand is done). */
export function startWorkers(subgraphs: readonly Subgraph<unknown>[]): { stop(): Promise<void> } {
  const workers = subgraphs.flatMap((s) => s.workers ?? []);
  for (const worker of workers) worker.start();
  return { stop: async () => void (await Promise.allSettled(workers.map((w) => w.stop()))) };
}
