import { normalizeEmail, normalizePhone } from './contacts.js';
import { emailKey, MIN_PHONE_DIGITS, nameMatches, nameQueryKey, nameWords, phoneKey } from './search-keys.js';

/** How a search text is looked up: one search key (indexed), then a check of each guest it found. */
export interface SearchPlan {
  /** Null: no key narrows it (every word shorter than a key); the check runs over every guest. */
  key: string | null;
  check: ((guest: { nome: string | null }) => boolean) | null;
}

const PHONE_LIKE = /^[+\d\s().\/-]+$/;

/** A text with `@` is an email; digits (at least 4) a phone number or its last digits; anything else a name. */
export function searchPlan(text: string, country: string): SearchPlan {
  const query = text.trim();
  if (query.includes('@'))
    return { key: emailKey(normalizeEmail(query) ?? query.toLowerCase()), check: null };
  const digits = query.replace(/\D/g, '');
  if (PHONE_LIKE.test(query) && digits.length >= MIN_PHONE_DIGITS) {
    const whole = normalizePhone(query, country);
    return { key: phoneKey(whole ? whole.slice(1) : digits), check: null };
  }
  const words = nameWords(query);
  const longest = [...words].sort((a, b) => b.length - a.length)[0] ?? '';
  const key = nameQueryKey(longest);
  const single = words.length === 1 && key !== null && longest.length <= 20;
  return { key, check: single ? null : (guest) => nameMatches(guest.nome, words) };
}
