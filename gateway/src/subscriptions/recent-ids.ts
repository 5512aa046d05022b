/**
 * The bus delivers at least once (an outbox relay may publish an event again after a lost acknowledgement),
 * so a subscription drops an event whose id it delivered recently. Bounded: remembers the last `capacity` ids.
 */
export function createRecentIds(capacity = 1000) {
  const ids = new Set<string>();
  return {
    /** True when `id` was seen already; otherwise remembers it and returns false. */
    seenBefore(id: string): boolean {
      if (ids.has(id)) return true;
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value as string);
      return false;
    },
  };
}
