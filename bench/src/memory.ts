import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Proc } from './processes.js';

/** Samples a process's RSS every `everyMs` until stopped; returns the samples in bytes. */
export function sampleRss(proc: Proc, everyMs = 250): { stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    const rss = proc.rssBytes();
    if (rss !== null) samples.push(rss);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** What scenario 5 gathers while the embedded process runs scenarios 1, 4 and its own mixed load. */
export interface MemoryRecord {
  idle: number | null;
  /** RSS samples while scenario 1's load ran against the embedded process. */
  underListLoad: number[];
}

/** Where a process's memory sits, from its own Prometheus text (prom-client's default Node.js metrics). */
export interface HeapFigures {
  heapUsed: number;
  /** The heap V8 has committed (used, garbage and free space it keeps). */
  heapTotal: number;
  external: number;
}

/** Reads `nodejs_heap_size_used_bytes`, `…_total_bytes` and `nodejs_external_memory_bytes` from a metrics endpoint. */
export async function readHeapFigures(metricsUrl: string): Promise<HeapFigures | null> {
  const text = await fetch(metricsUrl)
    .then((r) => r.text())
    .catch(() => '');
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
  const figures = {
    heapUsed: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
  };
  return Object.values(figures).every(Number.isFinite) ? figures : null;
}

/** Bytes of every file below `dir` (the embedded store's data). */
export function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? directoryBytes(path) : statSync(path).size);
  }, 0);
}

/** The RSS sample `seconds` into a series taken every `everyMs` (the last one if the series is shorter). */
export function sampleAt(samples: number[], seconds: number, everyMs: number): number {
  return samples[Math.min(samples.length - 1, Math.round((seconds * 1000) / everyMs))] ?? Number.NaN;
}
