/** Search keys of a guest (`chiavi`): what `ospiti(q)` finds it by, one indexed equality per search. */

/** Name words are keyed by their prefixes from this length on... */
const MIN_PREFIX = 2;
/** ...up to this one (a longer query word is looked up by its first characters, then checked whole). */
const MAX_PREFIX = 20;
/** Phone numbers are keyed by their trailing digits from this many on. */
export const MIN_PHONE_DIGITS = 4;

/** Lower case without accents: how names are compared, searched and sorted. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a name, folded. */
export function nameWords(name: string | null): string[] {
  if (!name) return [];
  return foldText(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

export const nameKey = (prefix: string) => `n:${prefix.slice(0, MAX_PREFIX)}`;
export const phoneKey = (digits: string) => `t:${digits}`;
export const emailKey = (email: string) => `e:${email}`;

/** Every key of a guest: name-word prefixes, trailing digits of the phone, the whole email. */
export function searchKeys(guest: { nome: string | null; telefono: string | null; email: string | null }) {
  const keys = new Set<string>();
  for (const word of nameWords(guest.nome)) {
    for (let length = MIN_PREFIX; length <= Math.min(word.length, MAX_PREFIX); length++)
      keys.add(nameKey(word.slice(0, length)));
  }
  if (guest.telefono) {
    const digits = guest.telefono.replace(/\D/g, '');
    for (let length = MIN_PHONE_DIGITS; length <= digits.length; length++)
      keys.add(phoneKey(digits.slice(-length)));
  }
  if (guest.email) keys.add(emailKey(guest.email));
  return [...keys];
}

/** The key a name query word is looked up by, or null when it is too short to have one. */
export function nameQueryKey(word: string): string | null {
  return word.length >= MIN_PREFIX ? nameKey(word) : null;
}

/** Every query word is the start of some word of the name (the check after the key narrowed the search). */
export function nameMatches(name: string | null, queryWords: readonly string[]): boolean {
  const words = nameWords(name);
  return queryWords.every((q) => words.some((w) => w.startsWith(q)));
}
