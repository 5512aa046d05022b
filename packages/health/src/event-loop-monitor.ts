import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LivenessInput {
  /** Now, in `performance.now()` milliseconds. */
  now: number;
  /** When the sampler last ran. */
  lastTickAt: number;
  sampleIntervalMs: number;
  /** When the sampler last saw a stall above the threshold (or null). */
  lastStallAt: number | null;
  maxDelayMs: number;
  windowMs: number;
}

/** How long the loop has been kept from running the sampler beyond its interval, as of `now`. */
export function currentStallMs(
  input: Pick<LivenessInput, 'now' | 'lastTickAt' | 'sampleIntervalMs'>,
): number {
  return Math.max(0, input.now - input.lastTickAt - input.sampleIntervalMs);
}

/**
 * Pure liveness rule: dead when the loop is stalled beyond `maxDelayMs` right now (the sampler is overdue: the
 * request being answered waited behind the block), or a stall beyond it ended less than `windowMs` ago.
 */
export function isAlive(input: LivenessInput): boolean {
  if (currentStallMs(input) > input.maxDelayMs) return false;
  return input.lastStallAt === null || input.now - input.lastStallAt > input.windowMs;
}

export interface EventLoopStats {
  /** Event-loop delay percentiles since the last reset (about every 10 s), in ms. */
  p50: number;
  p99: number;
  max: number;
  /** Longest stall seen by the sampler since start, in ms. */
  longestStall: number;
}

export interface EventLoopMonitorOptions {
  maxDelayMs: number;
  windowMs: number;
  sampleIntervalMs: number;
}

/**
 * Watches the event loop with a sampler timer (its lateness is the stall) and a `monitorEventLoopDelay`
 * histogram (percentiles for `/detailed`). Timers are unref'd: the monitor never keeps a process alive.
 */
export class EventLoopMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: NodeJS.Timeout;
  private lastTickAt = performance.now();
  private lastStallAt: number | null = null;
  private longestStall = 0;
  private lastReset = performance.now();

  constructor(private readonly options: EventLoopMonitorOptions) {
    this.histogram.enable();
    this.timer = setInterval(() => this.tick(), options.sampleIntervalMs);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    this.noteStall(
      currentStallMs({ now, lastTickAt: this.lastTickAt, sampleIntervalMs: this.options.sampleIntervalMs }),
      now,
    );
    this.lastTickAt = now;
    if (now - this.lastReset > 10_000) {
      this.histogram.reset();
      this.lastReset = now;
    }
  }

  private noteStall(stallMs: number, now: number): void {
    if (stallMs > this.longestStall) this.longestStall = stallMs;
    if (stallMs > this.options.maxDelayMs) this.lastStallAt = now;
  }

  /** Liveness as of now (a stall still in progress counts: it is remembered for the window). */
  alive(): boolean {
    const now = performance.now();
    const input = { ...this.options, now, lastTickAt: this.lastTickAt, lastStallAt: this.lastStallAt };
    const stall = currentStallMs(input);
    if (stall > this.options.maxDelayMs) this.noteStall(stall, now);
    return isAlive({ ...input, lastStallAt: this.lastStallAt });
  }

  stats(): EventLoopStats {
    const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e6) : 0);
    const empty = this.histogram.count === 0;
    return {
      p50: empty ? 0 : ms(this.histogram.percentile(50)),
      p99: empty ? 0 : ms(this.histogram.percentile(99)),
      max: empty ? 0 : ms(this.histogram.max),
      longestStall: Math.round(this.longestStall),
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
