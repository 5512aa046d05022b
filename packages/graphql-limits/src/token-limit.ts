import { Lexer, parse, Source, TokenKind, type DocumentNode } from 'graphql';
import { queryTooComplex } from './limit-error.js';

/**
 * Throws QUERY_TOO_COMPLEX when `source` has more than `maxTokens` lexical tokens. Only lexes, and stops at the
 * limit, so a 1 MiB document costs no more than `maxTokens` tokens. A lexical error is left to the parser.
 * Counts as graphql-js's `parse(source, { maxTokens })` does (comments and EOF are not tokens).
 */
export function assertTokenLimit(source: string, maxTokens: number): void {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      if (++count > maxTokens) break;
    }
  } catch {
    return;
  }
  if (count > maxTokens) throw queryTooComplex('tokens', maxTokens);
}

/** graphql-js `parse` with the token limit; over it, QUERY_TOO_COMPLEX instead of a syntax error. */
export function parseWithTokenLimit(source: string, maxTokens: number): DocumentNode {
  assertTokenLimit(source, maxTokens);
  return parse(source, { maxTokens });
}
