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
}

export const row = (r: Omit<Row, 'notes'> & { notes?: string }): Row => ({ notes: '', ...r });
