/** Serialises a value for storage; rejects what JSON cannot represent (`undefined`, functions, symbols). */
export function encodeValue(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('cache value must be JSON-serialisable');
  return json;
}

/** Parses a stored value; `undefined` when it is not valid JSON (a corrupt entry reads as a miss). */
export function decodeValue(json: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
}
