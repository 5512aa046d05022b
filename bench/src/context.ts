import type { BenchConfig } from './config.js';
import type { LoadGenerator } from './load.js';

/** One line of the results table: every figure next to its baseline from the same run, as ours / baseline. */
export interface Row {
  scenario: string;
  what: string;
  ours: string;
  baseline: string;
  ratio: string;
  notes: string;
}

export interface BenchContext {
  config: BenchConfig;
  load: LoadGenerator;
  jwtSecret: string;
  rows: Row[];
  /** How each scenario was measured, for RESULTS.md ("Method"). */
  method: string[];
  /** Sections of RESULTS.md of their own (heading → markdown), e.g. scenario 8's; written even by partial runs. */
  sections: Map<string, string>;
}

export const row = (r: Omit<Row, 'notes'> & { notes?: string }): Row => ({ notes: '', ...r });

/** Total CPU ms per request over `names` (all when omitted). */
export function cpuTotal(cpu: Record<string, number>, names?: readonly string[]): number {
  return Object.entries(cpu)
    .filter(([name]) => !names || names.includes(name))
    .reduce((sum, [, ms]) => sum + ms, 0);
}

/** "gateway 1.20, tavolo 0.80" (ms per request), largest first. */
export function cpuBreakdown(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .sort((x, y) => y[1] - x[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');
}
