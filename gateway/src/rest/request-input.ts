import { ValidationError } from '@coperto/errors';

/** What a route's `variables` function sees of the HTTP request. */
export interface RestRequest {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: unknown;
}

/** The JSON body as an object (an absent body is `{}`); anything else is a 400. */
export function bodyObject(req: RestRequest): Record<string, unknown> {
  if (req.body === undefined) return {};
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new ValidationError([{ field: 'body', message: 'must be a JSON object' }]);
  }
  return req.body as Record<string, unknown>;
}

/**
 * Keeps only the named fields of the body (others, such as a `tenantId`, are ignored: the tenant always
 * comes from the token). Types are then checked by GraphQL variable coercion (a 400 naming the field).
 */
export function pick(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(body, field)) picked[field] = body[field];
  return picked;
}

/** Query-string values typed for GraphQL: `true/false/1/0` → boolean, integers → number; else the text. */
export function queryBoolean(query: URLSearchParams, name: string): unknown {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

export function queryInt(query: URLSearchParams, name: string): unknown {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  return /^-?\d{1,9}$/.test(value) ? Number(value) : value;
}

export function queryString(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** Drops undefined entries so GraphQL sees "not given" rather than null. */
export function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
