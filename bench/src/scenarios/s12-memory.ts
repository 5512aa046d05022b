/**
 * Scenario 12's memory readings of every process of a deployment: RSS from /proc, the JS heap and the entries of
 * every bounded per-tenant structure (`bounded_state_entries{structure}`) from the process's own metrics.
 */
import { readHeapFigures, type HeapFigures } from '../memory.js';
import type { Instance } from '../stack-distributed.js';
import { median } from '../stats.js';

export interface ProcessMemory {
  rss: number;
  heap: HeapFigures;
  /** Entries of each bounded structure (by `structure` label) at the last reading. */
  bounded: Record<string, number>;
}

/** `bounded_state_entries{structure="x"} 12` lines of a Prometheus text (pure). */
export function boundedEntries(text: string): Record<string, number> {
  const entries: Record<string, number> = {};
  for (const m of text.matchAll(/^bounded_state_entries\{[^}]*structure="([^"]+)"[^}]*\} (\S+)$/gm)) {
    entries[m[1]!] = (entries[m[1]!] ?? 0) + Number(m[2]);
  }
  return entries;
}

/**
 * RSS (median) and JS heap used (the least) of each instance over `readings` a second apart; bounded entries at
 * the end.
 */
export async function readMemory(
  instances: readonly Instance[],
  readings = 5,
): Promise<Map<string, ProcessMemory>> {
  const rss = new Map<string, number[]>(instances.map((i) => [i.proc.name, []]));
  const heaps = new Map<string, HeapFigures[]>(instances.map((i) => [i.proc.name, []]));
  for (let r = 0; r < readings; r++) {
    await Promise.all(
      instances.map(async ({ proc, metricsUrl }) => {
        rss.get(proc.name)!.push(proc.rssBytes() ?? Number.NaN);
        const heap = await readHeapFigures(metricsUrl);
        if (heap) heaps.get(proc.name)!.push(heap);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const result = new Map<string, ProcessMemory>();
  await Promise.all(
    instances.map(async ({ proc, metricsUrl }) => {
      const text = await fetch(metricsUrl)
        .then((response) => response.text())
        .catch(() => '');
      const own = heaps.get(proc.name)!;
      const pick = (key: keyof HeapFigures) => median(own.map((h) => h[key]));
      result.set(proc.name, {
        rss: median(rss.get(proc.name)!),
        // The least reading: the nearest to what a collection leaves (the readings include garbage).
        heap: {
          heapUsed: Math.min(...own.map((h) => h.heapUsed)),
          heapTotal: pick('heapTotal'),
          external: pick('external'),
        },
        bounded: boundedEntries(text),
      });
    }),
  );
  return result;
}

/** The structures whose entries grew from `before` to `after`, largest growth first: "name +n". */
export function boundedGrowth(before: ProcessMemory, after: ProcessMemory): Array<[string, number]> {
  return Object.entries(after.bounded)
    .map(([name, n]): [string, number] => [name, n - (before.bounded[name] ?? 0)])
    .filter(([, grown]) => grown > 0)
    .sort((x, y) => y[1] - x[1]);
}
