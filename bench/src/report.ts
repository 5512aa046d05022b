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

/** A section (heading to the next `## `) of an existing RESULTS.md, e.g. one this run did not measure. */
function previousSection(file: string, heading: string): string | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(heading);
  if (start < 0) return null;
  const next = text.indexOf('\n## ', start + heading.length);
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
  /** Headings of sections of their own (scenario 8's) kept from the previous file; the run replaces them after. */
  keptSections: readonly string[];
}

export function writeResults(doc: ResultsDocument): void {
  const kept = previousSection(doc.file, TIME_HEADING);
  const others = doc.keptSections.flatMap((heading) => {
    const section = previousSection(doc.file, heading);
    return section === null ? [] : [section, ''];
  });
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
    ...others,
  ].join('\n');
  writeFileSync(doc.file, text);
}

/** Replaces (or appends) the section under `heading` (its first line) of RESULTS.md with `section`. */
export function replaceSection(file: string, heading: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Coperto benchmark results\n';
  const body = section.trimEnd();
  const start = text.indexOf(heading);
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${body}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(file, `${text.slice(0, start)}${body}\n${next < 0 ? '' : text.slice(next)}`);
}

/** Replaces (or appends) the "Where the time goes" section of an existing RESULTS.md: for profiling-only runs. */
export function replaceTimeSection(file: string, date: Date, profiles: readonly string[]): void {
  const section = [TIME_HEADING, '', `Profiled in the run of ${date.toISOString()}.`, '', ...profiles].join(
    '\n',
  );
  replaceSection(file, TIME_HEADING, section);
}
