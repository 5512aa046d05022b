/**
 * The replay's agenda: events at whole minutes, taken in time order and, within a minute, by rank (departures
 * before arrivals, so a table that frees at 20:00 seats the party arriving at 20:00), then in insertion order.
 */
export class EventQueue<E> {
  private readonly items: { minute: number; rank: number; seq: number; event: E }[] = [];
  private seq = 0;

  push(minute: number, rank: number, event: E): void {
    const item = { minute, rank, seq: this.seq++, event };
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.items[mid]!;
      const before = other.minute < minute || (other.minute === minute && other.rank <= rank);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, item);
  }

  shift(): { minute: number; event: E } | undefined {
    const item = this.items.shift();
    return item && { minute: item.minute, event: item.event };
  }

  get size(): number {
    return this.items.length;
  }
}
