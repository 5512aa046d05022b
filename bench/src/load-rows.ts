/** The rows every A/B load comparison reports: throughput, p50, p99 and, when measured, CPU per request. */
import { cpuBreakdown, cpuTotal, row, type Row } from './context.js';
import { failureNote, ms, ratio, rps } from './format.js';
import type { Summary } from './rounds.js';

export interface LoadRowOptions {
  /** What the baseline is, after its req/s, e.g. "floor" or "50 tables". */
  baselineLabel: string;
  /** Extra notes for the throughput row. */
  notes?: string[];
  /** Which processes' CPU to compare (all measured ones when omitted), and what to call the comparison. */
  cpu?: { what?: string; ours?: readonly string[]; baseline?: readonly string[] };
}

export function loadRows(scenario: string, ours: Summary, base: Summary, options: LoadRowOptions): Row[] {
  const rows = [
    row({
      scenario,
      what: 'throughput',
      ours: rps(ours.rps),
      baseline: `${rps(base.rps)} (${options.baselineLabel})`,
      ratio: ratio(ours.rps, base.rps),
      notes: [...(options.notes ?? []), failureNote(ours, 'ours'), failureNote(base, 'baseline')]
        .filter(Boolean)
        .join('; '),
    }),
    row({
      scenario,
      what: 'latency p50',
      ours: ms(ours.p50),
      baseline: ms(base.p50),
      ratio: ratio(ours.p50, base.p50),
    }),
    row({
      scenario,
      what: 'latency p99',
      ours: ms(ours.p99),
      baseline: ms(base.p99),
      ratio: ratio(ours.p99, base.p99),
    }),
  ];
  if (Object.keys(ours.cpuMsPerRequest).length > 0 && Object.keys(base.cpuMsPerRequest).length > 0) {
    const o = cpuTotal(ours.cpuMsPerRequest, options.cpu?.ours);
    const b = cpuTotal(base.cpuMsPerRequest, options.cpu?.baseline);
    rows.push(
      row({
        scenario,
        what: options.cpu?.what ?? 'server CPU per request',
        ours: ms(o),
        baseline: ms(b),
        ratio: ratio(o, b),
        notes: `ms/request: ours ${cpuBreakdown(ours.cpuMsPerRequest)} | baseline ${cpuBreakdown(base.cpuMsPerRequest)}`,
      }),
    );
  }
  return rows;
}
