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
