/** Number formats of the results table. */
const group = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const rps = (n: number) => (Number.isFinite(n) ? `${group(n)} req/s` : 'n/a');
export const ms = (n: number) =>
  Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : group(n)} ms` : 'n/a';
/** Bytes as KB under 1 MiB, else MB (one decimal under 100 MB). */
export const mb = (bytes: number | null) => {
  if (bytes === null || !Number.isFinite(bytes)) return 'n/a';
  if (Math.abs(bytes) < 2 ** 20) return `${group(bytes / 2 ** 10)} KB`;
  return `${group(bytes / 2 ** 20, bytes < 100 * 2 ** 20 ? 1 : 0)} MB`;
};
export const num = (n: number, digits = 0) => (Number.isFinite(n) ? group(n, digits) : 'n/a');

/** "0.12×": ours / baseline. */
export function ratio(ours: number, baseline: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(baseline) || baseline === 0) return 'n/a';
  const r = ours / baseline;
  return `${r >= 10 ? r.toFixed(1) : r >= 1 ? r.toFixed(2) : r.toFixed(3)}×`;
}

export const percent = (fraction: number) =>
  Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)} %` : 'n/a';

/** Failures and errors of a load, for the notes column ('' when clean). */
export function failureNote(
  summary: { failures: Record<string, number>; errors: number },
  label = '',
): string {
  const parts = Object.entries(summary.failures).map(([status, count]) => `${count}× HTTP ${status}`);
  if (summary.errors > 0) parts.push(`${summary.errors} connection errors`);
  return parts.length === 0 ? '' : `${label}${label ? ': ' : ''}${parts.join(', ')}`;
}
