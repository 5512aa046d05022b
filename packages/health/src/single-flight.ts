export interface SingleFlight<T> {
  /** The running round if there is one, else a reused recent result, else a new round. */
  get(): Promise<T>;
  /** Forgets the reused result (the next `get` starts a new round). */
  invalidate(): void;
}

/**
 * Concurrent callers share one run of `run`; a finished result is reused for `reuseMs`. A rejected run is not
 * reused. This is what keeps a storm of probes from turning into a storm of pings on the database.
 */
export function singleFlight<T>(
  run: () => Promise<T>,
  reuseMs: number,
  now: () => number = () => performance.now(),
): SingleFlight<T> {
  let inFlight: Promise<T> | undefined;
  let last: { value: T; at: number } | undefined;
  let generation = 0;
  return {
    get() {
      if (last && now() - last.at < reuseMs) return Promise.resolve(last.value);
      if (inFlight) return inFlight;
      const mine = generation;
      const round = run().then((value) => {
        if (mine === generation) last = { value, at: now() };
        return value;
      });
      inFlight = round;
      const clear = () => {
        if (inFlight === round) inFlight = undefined;
      };
      round.then(clear, clear);
      return round;
    },
    invalidate() {
      generation += 1;
      last = undefined;
      inFlight = undefined;
    },
  };
}
