/**
 * Why a running claim's handler was told to stop (`DueJob.signal.reason`):
 * - `lost`: the job is no longer the claim's (cancelled, rescheduled, or retaken by another instance);
 * - `overran`: the handler ran `maxRunMs`, so its lease is no longer renewed and another instance may retake it;
 * - `unreachable`: the lease could not be renewed before it ran out (the store did not answer).
 */
export class ClaimEndedError extends Error {
  constructor(readonly why: 'lost' | 'overran' | 'unreachable') {
    super(`the claim ended while its handler ran (${why})`);
    this.name = 'ClaimEndedError';
  }
}

export interface LeaseKeeperOptions {
  /** Extends the claim's lease to `leaseUntil` (compare-and-set on the claim): false when it is no longer current. */
  renew: (leaseUntil: string) => Promise<boolean>;
  now: () => Date;
  leaseMs: number;
  /** How often the lease is renewed (well below `leaseMs`). */
  renewMs: number;
  /** The longest a handler keeps its lease. */
  maxRunMs: number;
  /** The lease the claim was taken with. */
  leaseUntil: string;
  onError?: (error: unknown) => void;
}

export interface LeaseKeeper {
  /** Aborted (with a ClaimEndedError) when the claim ended while its handler runs. */
  readonly signal: AbortSignal;
  /** Stops renewing (the handler returned); waits for a renewal in flight. */
  stop(): Promise<void>;
}

/**
 * Renews a running claim's lease every `renewMs` while its handler runs, so that a job that takes longer than
 * one lease (a reminder to a slow SMTP server) is not retaken by another instance while its owner lives; a killed
 * owner renews nothing and its job is retaken after the lease, as before. The handler's signal is aborted when the
 * claim ends under it, so that it can stop before its effect's point of no return.
 */
export function keepLease(options: LeaseKeeperOptions): LeaseKeeper {
  const controller = new AbortController();
  const startedAt = options.now().getTime();
  let leaseUntil = options.leaseUntil;
  let inFlight: Promise<void> | null = null;
  const end = (why: ClaimEndedError['why']) => {
    if (!controller.signal.aborted) controller.abort(new ClaimEndedError(why));
  };
  const tick = async () => {
    const now = options.now();
    if (now.getTime() - startedAt >= options.maxRunMs) return end('overran');
    const next = new Date(now.getTime() + options.leaseMs).toISOString();
    try {
      if (await options.renew(next)) leaseUntil = next;
      else end('lost');
    } catch (error) {
      options.onError?.(error);
      if (options.now().toISOString() >= leaseUntil) end('unreachable');
    }
  };
  const timer = setInterval(() => {
    if (inFlight || controller.signal.aborted) return;
    inFlight = tick().finally(() => (inFlight = null));
  }, options.renewMs);
  timer.unref();
  return {
    signal: controller.signal,
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
