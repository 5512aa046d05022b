import type { BoundedStats } from '@coperto/async';
import { Counter, Gauge, type Registry } from 'prom-client';

/** One registry's `bounded_state_*` families, filled from every registered structure at each scrape. */
export function boundedStateFamilies(registry: Registry) {
  const structures = new Map<string, () => BoundedStats>();
  const read = () => [...structures].map(([structure, stats]) => ({ structure, stats: stats() }));
  const gauge = (name: string, help: string, pick: (s: BoundedStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['structure'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { structure, stats } of read()) {
          const value = pick(stats);
          if (value !== undefined) this.set({ structure }, value);
        }
      },
    });
  const counter = (name: string, help: string, pick: (s: BoundedStats) => number | undefined) =>
    new Counter({
      name,
      help,
      labelNames: ['structure'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { structure, stats } of read()) {
          const value = pick(stats);
          if (value !== undefined) this.inc({ structure }, value);
        }
      },
    });
  gauge(
    'bounded_state_entries',
    'Entries held by a bounded in-process structure (per-tenant maps, caches, logs)',
    (s) => s.entries,
  );
  gauge('bounded_state_capacity', 'The most entries a bounded in-process structure holds', (s) => s.capacity);
  counter(
    'bounded_state_evictions_total',
    'Entries a bounded in-process structure dropped for its bound or their age',
    (s) => s.evictions,
  );
  counter('bounded_state_hits_total', 'Reads a bounded in-process cache answered', (s) => s.hits);
  counter('bounded_state_misses_total', 'Reads a bounded in-process cache could not answer', (s) => s.misses);
  return {
    register(structure: string, stats: () => BoundedStats) {
      if (structures.has(structure)) throw new Error(`bounded structure ${structure} registered twice`);
      structures.set(structure, stats);
    },
  };
}
