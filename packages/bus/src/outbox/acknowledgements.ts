import { sleep } from '@coperto/async';

/** The reason a wake-up gives when it cuts a pause short (any value but undefined, which builds an AbortError). */
export const WOKEN = 'woken';

export interface AcknowledgementsOptions<R> {
  /** Least time between the starts of two acknowledgements. */
  intervalMs: number;
  /** Records waiting that make the next acknowledgement start at once. */
  batchSize: number;
  /** How many records a round holds. */
  sizeOf(round: R): number;
  /** Acknowledges these rounds in one store call; resolves to whether it failed, never rejects. */
  acknowledge(rounds: readonly R[]): Promise<boolean>;
}

/**
 * Published rounds wait here for their acknowledgement, which runs beside the rounds (their records stay leased
 * until it lands, so no round claims them again): one acknowledgement at a time, in round order, each of every
 * round published since the last one started, and at least `intervalMs` after it. So an event written during a
 * slow acknowledgement (a disk flush, a store round trip) is published without waiting for it, and a store
 * command acknowledges many rounds under load.
 */
export class Acknowledgements<R> {
  private waiting: R[] = [];
  private waitingRecords = 0;
  /** The acknowledgements in progress (settles when none is left to do); never rejects. */
  private running: Promise<void> | null = null;
  private lastStart = -Infinity;
  /** Cuts the pause before the next acknowledgement short. */
  private wake = new AbortController();
  private flushing = false;
  /** An acknowledgement failed since `takeFailure` was last asked. */
  private failed = false;

  constructor(private readonly options: AcknowledgementsOptions<R>) {}

  /** Queues a published round; waits for the acknowledgements while a full batch of records waits. */
  async add(round: R): Promise<void> {
    this.waiting.push(round);
    this.waitingRecords += this.options.sizeOf(round);
    this.running ??= this.drain();
    if (this.waitingRecords >= this.options.batchSize) {
      this.hurry();
      await this.running;
    }
  }

  /** Whether rounds wait for an acknowledgement. */
  hasWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** The next acknowledgement starts now. */
  hurry(): void {
    this.wake.abort(WOKEN);
  }

  /** Acknowledges what waits without pausing from now on (the relay stops), and resolves when done. */
  async flush(): Promise<void> {
    this.flushing = true;
    this.hurry();
    await this.running;
  }

  /** Whether an acknowledgement failed since the last call. */
  takeFailure(): boolean {
    const failed = this.failed;
    this.failed = false;
    return failed;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const pause = this.lastStart + this.options.intervalMs - Date.now();
        if (pause > 0 && !this.flushing && this.waitingRecords < this.options.batchSize) {
          this.wake = new AbortController();
          await sleep(pause, this.wake.signal);
        }
        const rounds = this.waiting;
        this.waiting = [];
        this.waitingRecords = 0;
        this.lastStart = Date.now();
        if (await this.options.acknowledge(rounds)) this.failed = true;
      }
    } finally {
      this.running = null;
    }
  }
}
