/**
 * Which outbox collections this process wrote events to since its relay last read them, so that the relay's
 * claim after a write (a kicked round) reads only those instead of every collection it serves: on MongoDB a read
 * per collection is a store command, and a relay serving two collections and their deleted records' tombstones
 * would otherwise pay four reads per round whatever was written. A claim after writes still reads every
 * collection not read for `maxQuietMs`, and the relay's idle polls read them all: so what other processes wrote,
 * leases that ran out and anything a crash left behind are found even while this process writes without pause.
 */
export class WrittenOutboxes {
  private readonly written = new Set<string>();
  private readonly lastRead = new Map<string, number>();
  /** Writes with events per collection since start (see writeCount). */
  private readonly writes = new Map<string, number>();

  constructor(private readonly maxQuietMs: number) {}

  /** After a write with events to `collection` succeeded. */
  mark(collection: string): void {
    this.written.add(collection);
    this.writes.set(collection, this.writeCount(collection) + 1);
  }

  /**
   * How many writes with events to `collection` succeeded so far. A claim notes it, so that the acknowledgement that
   * releases its records can tell whether one of them may have been written while leased (a claim made meanwhile
   * skipped it), and have the collection read again (`reread`).
   */
  writeCount(collection: string): number {
    return this.writes.get(collection) ?? 0;
  }

  /** The next claim after writes reads `collection` (records released with events written while leased). */
  reread(collection: string): void {
    this.written.add(collection);
  }

  /**
   * The collections of `collections` a claim at `now` reads: all of them with `all`; otherwise those written since
   * their last read or not read for `maxQuietMs`. They count as read from now on (a write that lands while the
   * claim reads marks them again).
   */
  due(collections: readonly string[], now: number, options: { all?: boolean } = {}): string[] {
    const due = options.all
      ? [...collections]
      : collections.filter(
          (name) => this.written.has(name) || now - (this.lastRead.get(name) ?? -Infinity) >= this.maxQuietMs,
        );
    for (const name of due) {
      this.written.delete(name);
      this.lastRead.set(name, now);
    }
    return due;
  }
}
