/** The property both generated suites check: a program keeps every invariant (known, unfixed defects reported). */
import { describeEntry } from './history.js';
import { triage } from './known-defects.js';
import type { Step } from './program.js';
import { logsOfFailure, runProgram, violationsOf, type ProgramResult, type RunOptions } from './runner.js';

export interface Tally {
  programs: number;
  requests: number;
  faults: number;
  known: Set<string>;
  /** Per operation kind: requests sent and acknowledged (2xx), to show what the programs actually did. */
  kinds: Map<string, { sent: number; acknowledged: number }>;
}

export const newTally = (): Tally => ({
  programs: 0,
  requests: 0,
  faults: 0,
  known: new Set(),
  kinds: new Map(),
});

export async function checkProgram(
  program: readonly Step[],
  options: RunOptions & { faults?: boolean },
  tally: Tally = newTally(),
): Promise<void> {
  const result = await runProgram(program, options);
  tally.programs++;
  tally.requests += result.history.length;
  for (const e of result.history) {
    const kind = tally.kinds.get(e.intent.kind) ?? { sent: 0, acknowledged: 0 };
    kind.sent++;
    if (e.status >= 200 && e.status < 300) kind.acknowledged++;
    tally.kinds.set(e.intent.kind, kind);
  }
  const violations = violationsOf(result, {
    faults: options.faults ?? false,
    events: options.eventsObservable !== false,
  });
  const { known, failing } = triage(violations, result);
  for (const k of known) tally.known.add(k.slice(k.lastIndexOf('[known: ')));
  if (failing.length > 0) {
    throw new Error(
      `${failing.join('\n')}\n--- history ---\n${result.history.map(describeEntry).join('\n')}` +
        faultWindows(result.faults) +
        // Under faults a violation may be a process's state (a relay failing every round): its warnings say so.
        (options.faults ? logsOfFailure(options.stack, null) : ''),
    );
  }
}

/** When each fault was injected and healed, on the history's clock. */
const faultWindows = (faults: ProgramResult['faults']) =>
  faults && faults.length > 0
    ? `\n--- faults ---\n${faults.map((f) => `[${f.from.toFixed(1)}–${f.to.toFixed(1)}]`).join('\n')}`
    : '';

export const summary = (label: string, tally: Tally) =>
  `[props] ${label}: ${tally.programs} programs, ${tally.requests} requests, ${tally.faults} faults injected` +
  (tally.known.size > 0 ? `; known defects seen: ${[...tally.known].join(' ')}` : '') +
  `\n  (acknowledged/sent: ${[...tally.kinds.entries()].map(([k, n]) => `${k} ${n.acknowledged}/${n.sent}`).join(', ')})`;
