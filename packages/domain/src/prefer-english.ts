/** English wins over Italian when both are sent (the API's rule for bilingual inputs). */
export function preferEnglish<T>(
  english: T | null | undefined,
  italian: T | null | undefined,
): T | undefined {
  if (english !== undefined && english !== null) return english;
  if (italian !== undefined && italian !== null) return italian;
  return undefined;
}
