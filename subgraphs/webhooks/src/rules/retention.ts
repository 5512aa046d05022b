/** A finished delivery (delivered, or given up) stays in the log this long after its last change, then goes. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;

/** How often an instance sweeps one tenant's finished deliveries (when that tenant's events come in). */
export const RETENTION_SWEEP_EVERY_MS = 3_600_000;

/** Finished deliveries last changed before this are removed. */
export function retentionCutoff(now: Date): string {
  return new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString();
}

/** Whether a tenant last swept at `lastSweptMs` (undefined: never, by this instance) is due a sweep at `now`. */
export function sweepDue(lastSweptMs: number | undefined, now: Date): boolean {
  return lastSweptMs === undefined || now.getTime() - lastSweptMs >= RETENTION_SWEEP_EVERY_MS;
}
