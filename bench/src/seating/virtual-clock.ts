/**
 * The simulator's side of the virtual clock (virtual-clock-preload.ts runs in the service): the node flags
 * and environment that install it in a process the bench starts, and a client that moves it forward.
 */
const PRELOAD = new URL('./virtual-clock-preload.ts', import.meta.url);

/** Node flags for the service process: tsx (the preload is TypeScript), then the preload. */
export const virtualClockNodeArgs = () => ['--import', 'tsx', '--import', PRELOAD.href];

export const virtualClockEnv = (port: number, startMs: number) => ({
  VIRTUAL_CLOCK_PORT: String(port),
  VIRTUAL_CLOCK_START_MS: String(startMs),
});

export interface VirtualClock {
  /** Moves the service's clock to `epochMs` (never back); a no-op when it is already there. */
  set(epochMs: number): Promise<void>;
  read(): Promise<number>;
}

export function virtualClockClient(port: number): VirtualClock {
  const url = `http://127.0.0.1:${port}/time`;
  let last: number | null = null;
  return {
    async set(epochMs) {
      if (epochMs === last) return;
      const response = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ epochMs }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      if (response.status !== 204)
        throw new Error(`virtual clock: PUT ${epochMs} → ${response.status} ${text}`);
      last = epochMs;
    },
    async read() {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return ((await response.json()) as { epochMs: number }).epochMs;
    },
  };
}
