const started = Date.now();

/** Progress on stderr, with the time since the run started; the table goes to stdout. */
export function log(message: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}

export const elapsedSeconds = () => (Date.now() - started) / 1000;
