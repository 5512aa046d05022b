import { Query } from 'mingo/query';
import type { JsonObject } from './json-values.js';
import { FILTER_CONTEXT } from './mingo-context.js';
import type { Filter } from './types.js';

/**
 * The embedded adapter's matcher: a (validated) Filter compiled once by mingo, then tested against each stored
 * document. Stored documents are plain JSON, so mingo never needs to clone them (its default).
 */
export function compileFilter(filter: Filter): (doc: JsonObject) => boolean {
  if (Object.keys(filter).length === 0) return () => true;
  const query = new Query(filter, { context: FILTER_CONTEXT });
  return (doc) => query.test(doc);
}
