/**
 * What to undo when the run ends, in reverse order, also on failure and on Ctrl-C / SIGTERM. Child processes
 * register a synchronous kill too, for the case where the bench process exits without running the async steps.
 */
type Step = { name: string; run: () => Promise<void> | void };

const steps: Step[] = [];
const syncKills = new Set<() => void>();
let running: Promise<void> | null = null;

export function onCleanup(name: string, run: Step['run']): void {
  steps.push({ name, run });
}

export function onExitKill(kill: () => void): () => void {
  syncKills.add(kill);
  return () => syncKills.delete(kill);
}

/** True once cleanup started (Ctrl-C, SIGTERM or the end of the run): start nothing new. */
export const stopping = () => running !== null;

export function cleanup(): Promise<void> {
  running ??= (async () => {
    while (steps.length > 0) {
      const step = steps.pop()!;
      try {
        await step.run();
      } catch (error) {
        console.error(`cleanup: ${step.name} failed: ${(error as Error).message}`);
      }
    }
  })();
  return running;
}

/** Ctrl-C and SIGTERM stop everything the run started, then exit 130 / 143. */
export function installSignalHandlers(): void {
  const onSignal = (signal: NodeJS.Signals, code: number) => {
    console.error(`\n${signal}: stopping everything the bench started…`);
    const force = setTimeout(() => process.exit(code), 20_000);
    force.unref();
    void cleanup().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => onSignal('SIGINT', 130));
  process.once('SIGTERM', () => onSignal('SIGTERM', 143));
  process.on('exit', () => {
    for (const kill of syncKills) kill();
  });
}
