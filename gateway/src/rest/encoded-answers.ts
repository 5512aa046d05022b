/**
 * The UTF-8 bytes of recently served cached answers, so a cache hit does not encode the same JSON text again
 * (a table list is tens of kilobytes). Looked up by the caller's key and checked against the text the cache
 * just returned, so these bytes are only ever the encoding of that very text. At most `maxEntries` answers;
 * the least recently used go first.
 */
export function createEncodedAnswers(maxEntries = 256): (key: string, json: string) => Buffer {
  const answers = new Map<string, { json: string; bytes: Buffer }>();
  return (key, json) => {
    const known = answers.get(key);
    answers.delete(key);
    const entry = known !== undefined && known.json === json ? known : { json, bytes: Buffer.from(json) };
    answers.set(key, entry);
    for (const oldest of answers.keys()) {
      if (answers.size <= maxEntries) break;
      answers.delete(oldest);
    }
    return entry.bytes;
  };
}
