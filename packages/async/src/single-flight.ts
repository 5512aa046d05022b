/**
 * At most one load per key at a time: a caller asking for a key whose load is running gets that load's promise
 * (its value or its rejection) instead of starting another. Nothing is kept once the load settles, so this is
 * not a cache: it stops a burst of identical misses (a thundering herd after an invalidation) from each doing
 * the same work. Keys are opaque: include everything the result depends on (the tenant first of all).
 */
export interface SingleFlight {
  run<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Loads running now. */
  readonly size: number;
  /** Forgets the running load of `key` (it still settles for the callers that have it): the next caller loads anew. */
  forget(key: string): void;
  /** Forgets the running loads (they still settle for the callers that have them). */
  clear(): void;
}

export function createSingleFlight(): SingleFlight {
  const running = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, load: () => Promise<T>): Promise<T> {
      const current = running.get(key);
      if (current !== undefined) return current as Promise<T>;
      // An async wrapper turns a synchronous throw of `load` into a rejection shared like any other.
      const started = (async () => load())();
      running.set(key, started);
      const forget = () => {
        if (running.get(key) === started) running.delete(key);
      };
      started.then(forget, forget);
      return started;
    },
    get size() {
      return running.size;
    },
    forget(key: string) {
      running.delete(key);
    },
    clear() {
      running.clear();
    },
  };
}
