/** The one results table (stdout) and bench/RESULTS.md. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Row } from './context.js';
import type { MachineInfo } from './machine.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(rows: readonly Row[]): string {
  const lines = [
    '| scenario | figure | ours | baseline (same run) | ours / baseline | notes |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  let last = '';
  for (const r of rows) {
    lines.push(
      `| ${r.scenario === last ? '' : cell(r.scenario)} | ${cell(r.what)} | ${cell(r.ours)} | ${cell(r.baseline)} | ` +
        `${cell(r.ratio)} | ${cell(r.notes)} |`,
    );
    last = r.scenario;
  }
  return lines.join('\n');
}

const TIME_HEADING = '## Where the time goes';

/** The "Where the time goes" section of an existing RESULTS.md (kept when this run did not profile). */
function previousTimeSection(file: string): string | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(TIME_HEADING);
  if (start < 0) return null;
  const next = text.indexOf('\n## ', start + TIME_HEADING.length);
  return text.slice(start, next < 0 ? undefined : next).trimEnd();
}

export interface ResultsDocument {
  file: string;
  date: Date;
  machine: MachineInfo;
  command: string;
  settings: string;
  durationSeconds: number;
  loadAverageAfter: string;
  table: string;
  method: readonly string[];
  /** New profile summaries from this run (markdown), if it profiled. */
  profiles: readonly string[];
}

export function writeResults(doc: ResultsDocument): void {
  const kept = previousTimeSection(doc.file);
  const timeSection =
    doc.profiles.length > 0
      ? [TIME_HEADING, '', `Profiled in the run of ${doc.date.toISOString()}.`, '', ...doc.profiles].join(
          '\n',
        )
      : (kept ??
        `${TIME_HEADING}\n\nNot profiled yet: run with BENCH_CPU_PROF=<process name> (see README.md).`);
  const text = [
    '# Coperto benchmark results',
    '',
    `- Date: ${doc.date.toISOString()}`,
    `- Machine: ${doc.machine.cores} cores (${doc.machine.cpu}), ${doc.machine.memoryGiB} GiB memory, Linux ` +
      `${doc.machine.kernel}; load average (1/5/15 min) ${doc.machine.loadAverage} at the start, ` +
      `${doc.loadAverageAfter} at the end (other work shares this machine: read the ratios, not the absolutes)`,
    `- Code: commit ${doc.machine.revision} (read when the run started)`,
    `- Node ${doc.machine.node}; ${doc.machine.packages}`,
    `- Command: \`${doc.command}\` (${doc.settings}); took ${(doc.durationSeconds / 60).toFixed(1)} min`,
    '',
    '## Results',
    '',
    'Each figure is the median of the measured rounds; its baseline was measured in the same run, in alternating ' +
      'rounds. Ratios are ours / baseline: for throughput higher is better, for latency and memory lower is better.',
    '',
    doc.table,
    '',
    '## Method',
    '',
    ...doc.method.flatMap((m) => [m, '']),
    timeSection,
    '',
  ].join('\n');
  writeFileSync(doc.file, text);
}

/** Replaces (or appends) the "Where the time goes" section of an existing RESULTS.md: for profiling-only runs. */
export function replaceTimeSection(file: string, date: Date, profiles: readonly string[]): void {
  const section = [TIME_HEADING, '', `Profiled in the run of ${date.toISOString()}.`, '', ...profiles].join(
    '\n',
  );
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Coperto benchmark results\n';
  const start = text.indexOf(TIME_HEADING);
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + TIME_HEADING.length);
  writeFileSync(file, `${text.slice(0, start)}${section}\n${next < 0 ? '' : text.slice(next)}`);
}
