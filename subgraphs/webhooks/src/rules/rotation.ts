/** After a rotation the old secret still signs for this long, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A signing secret of an endpoint: the current one has no `scadeIl`; a rotated-out one expires. */
export interface StoredSecret {
  secret: string;
  creatoIl: string;
  /** Rotated out: it signs until then (ISO time). */
  scadeIl?: string;
}

/** The secrets that sign a delivery at `now`: the current one first, then the rotated-out ones not expired. */
export function signingSecrets(secrets: readonly StoredSecret[], now: Date): StoredSecret[] {
  return secrets.filter((s) => s.scadeIl === undefined || Date.parse(s.scadeIl) > now.getTime());
}

/**
 * The secrets after a rotation at `now`: `fresh` becomes the current one, the current one signs for
 * `ROTATION_OVERLAP_MS` more, the expired ones are dropped (a second rotation within the window ends the first
 * one's overlap no earlier than it was promised).
 */
export function rotateSecrets(secrets: readonly StoredSecret[], fresh: string, now: Date): StoredSecret[] {
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const kept = signingSecrets(secrets, now).map((s) =>
    s.scadeIl === undefined ? { ...s, scadeIl: until } : s,
  );
  return [{ secret: fresh, creatoIl: now.toISOString() }, ...kept];
}
