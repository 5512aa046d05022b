/** Bytes in Redis' `used_memory_human` style: `512B`, `1.50K`, `12.34M`, `1.00G`. */
export function humanBytes(bytes: number): string {
  const units = ['K', 'M', 'G', 'T', 'P'] as const;
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))}B`;
  let value = bytes;
  let unit: string = 'B';
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value.toFixed(2)}${unit}`;
}
