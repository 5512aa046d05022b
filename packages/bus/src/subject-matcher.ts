/**
 * NATS subject rules, pure. Subjects are `.`-separated non-empty tokens without whitespace. In a
 * subscription pattern a token that is exactly `*` matches one token and a final `>` matches one or more
 * remaining tokens; anywhere else `*` and `>` are literal characters (as in nats-server).
 */

const whitespace = /\s/;

/** A single token usable inside a subject: non-empty, no `.`, no wildcard, no whitespace. */
export function isSubjectToken(value: string): boolean {
  return (
    value.length > 0 && !value.includes('.') && value !== '*' && value !== '>' && !whitespace.test(value)
  );
}

function tokensOf(subject: string): string[] | null {
  if (subject.length === 0 || whitespace.test(subject)) return null;
  const tokens = subject.split('.');
  return tokens.every((t) => t.length > 0) ? tokens : null;
}

/** A subject an event can be published on: valid tokens and no wildcard token. */
export function isPublishSubject(subject: string): boolean {
  const tokens = tokensOf(subject);
  return tokens !== null && tokens.every((t) => t !== '*' && t !== '>');
}

/** A subscription pattern: valid tokens, `>` only as the last token. */
export function isSubjectPattern(pattern: string): boolean {
  const tokens = tokensOf(pattern);
  return tokens !== null && tokens.every((t, i) => t !== '>' || i === tokens.length - 1);
}

/** True when `subject` (a publish subject) is matched by `pattern` (which may hold wildcards). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const want = tokensOf(pattern);
  const have = tokensOf(subject);
  if (!want || !have) return false;
  for (let i = 0; i < want.length; i++) {
    const token = want[i];
    if (token === '>' && i === want.length - 1) return have.length > i;
    const actual = have[i];
    if (actual === undefined) return false;
    if (token !== '*' && token !== actual) return false;
  }
  return have.length === want.length;
}
