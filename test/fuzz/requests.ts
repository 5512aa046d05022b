import fc from 'fast-check';
import { deepJsonText, hostileString, jsonText, objectText } from './hostile.js';
import type { RouteShape } from './route-shapes.js';

/** One generated HTTP request, as sent (the body is raw text). */
export interface FuzzRequest {
  method: string;
  /** Path and query string, already encoded. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the generators draw from besides random values: live ids, tokens and valid documents. */
export interface FuzzContext {
  shapes: readonly RouteShape[];
  /** Authorization header values: valid, admin, another tenant's, malformed. */
  authorizations: readonly string[];
  /** Ids that exist, so some requests reach the code behind the lookup. */
  ids: readonly string[];
  /** Valid GraphQL documents to start from. */
  documents: readonly string[];
}

/** `encodeURIComponent`, except that lone surrogates (which it refuses) go out as their WTF-8 bytes. */
export function encodePart(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'FOO'];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/JSON',
  'application/vnd.coperto+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/html',
  '',
  ';;;',
  'application/json, text/plain',
];

/** A header value fetch will send (printable Latin-1, no CR/LF/NUL). */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom('x'.repeat(4000), '$gt', '__proto__', '-1', 'NaN', '*', 'gzip', 'chunked'),
);

const segment = (ctx: FuzzContext): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...(ctx.ids.length > 0 ? ctx.ids : ['none'])) },
    { weight: 4, arbitrary: hostileString.map(encodePart) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '..', '.', '%2e%2e', '%00', ';', '*', 'a'.repeat(1100)),
    },
  );

const queryPair = (names: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['q'])) },
        { weight: 1, arbitrary: fc.constantFrom('$where', 'a.b', '__proto__', 'constructor', 'filter[$gt]') },
        { weight: 1, arbitrary: hostileString },
      ),
      fc.oneof(hostileString, fc.integer().map(String), fc.constantFrom('true', 'false', '1', '0', '')),
    )
    .map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`);

const queryString = (names: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc.array(queryPair(names), { minLength: 1, maxLength: 5 }).map((p) => `?${p.join('&')}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&=&', '?a=%', '?%zz=1', `?q=${'a'.repeat(1100)}&q=b`) },
  );

/** A REST path: a route's own path with hostile parameters, or a near miss of it. */
const restTarget = (ctx: FuzzContext, shape: RouteShape): fc.Arbitrary<string> => {
  const parts = shape.path.split('/');
  const filled = fc
    .tuple(...parts.map((part) => (part.startsWith(':') ? segment(ctx) : fc.constant(part))))
    .map((p) => p.join('/'));
  const path = fc.oneof(
    { weight: 6, arbitrary: filled },
    { weight: 1, arbitrary: fc.tuple(filled, segment(ctx)).map(([p, s]) => `${p}/${s}`) },
    { weight: 1, arbitrary: filled.map((p) => `${p}/`) },
    { weight: 1, arbitrary: filled.map((p) => p.replace('/api/', '/api//')) },
  );
  return fc.tuple(path, queryString(shape.queryNames)).map(([p, q]) => p + q);
};

const bodyFor = (ctx: FuzzContext, fields: readonly string[]): fc.Arbitrary<string> => {
  const allFields = [...new Set(ctx.shapes.flatMap((s) => s.bodyFields))];
  const value = fc.oneof(
    { weight: 4, arbitrary: jsonText(2) },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.ids.map((id) => JSON.stringify(id)), '"x"') },
    {
      weight: 1,
      arbitrary: fc
        .array(objectText(jsonText(2), allFields), { maxLength: 3 })
        .map((a) => `[${a.join(',')}]`),
    },
    { weight: 1, arbitrary: deepJsonText },
  );
  return fc.oneof(
    { weight: 6, arbitrary: objectText(value, fields.length > 0 ? fields : allFields) },
    { weight: 1, arbitrary: jsonText(3) },
    { weight: 1, arbitrary: deepJsonText },
    { weight: 1, arbitrary: deepJsonText.map((d) => `{"items":[${d}]}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom('{', '[', '{"a":1,}', '\uFEFF{}', 'null', '"x"', '{"a":1e999}') },
  );
};

const headers = (ctx: FuzzContext, body: string | undefined): fc.Arbitrary<Record<string, string>> =>
  fc
    .record(
      {
        authorization: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...ctx.authorizations) },
          { weight: 1, arbitrary: headerValue },
        ),
        'content-type': fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
          { weight: 1, arbitrary: headerValue },
        ),
        'x-request-id': headerValue,
        accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml'),
        'content-encoding': fc.constantFrom('gzip', 'identity', 'br'),
        'if-none-match': headerValue,
        'x-forwarded-for': headerValue,
      },
      { requiredKeys: [] },
    )
    .map((h) =>
      body === undefined ? Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'content-type')) : h,
    );

const withHeaders = (ctx: FuzzContext, method: string, target: string, body: string | undefined) =>
  headers(ctx, body).map((h): FuzzRequest => ({
    method,
    target,
    headers: h,
    ...(body === undefined ? {} : { body }),
  }));

/** A request against one REST route: mostly its own method, sometimes another one. */
export const restRequest = (ctx: FuzzContext): fc.Arbitrary<FuzzRequest> =>
  fc
    .constantFrom(...ctx.shapes)
    .chain((shape) =>
      fc
        .tuple(
          fc.oneof(
            { weight: 5, arbitrary: fc.constant(shape.method) },
            { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
          ),
          restTarget(ctx, shape),
          fc.option(bodyFor(ctx, shape.bodyFields), { freq: 4 }),
        )
        .chain(([method, target, body]) =>
          withHeaders(
            ctx,
            method,
            target,
            method === 'GET' || method === 'HEAD' || body === null ? undefined : body,
          ),
        ),
    );

/** A GraphQL document: a valid one, mutilated, or one built to strain the parser and the planner. */
const document = (ctx: FuzzContext): fc.Arbitrary<string> => {
  const valid = fc.constantFrom(...ctx.documents);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          valid,
          fc.nat(),
          fc.nat({ max: 40 }),
          fc.oneof(hostileString, fc.constantFrom('{', '}', '(', '$', '...', '@skip', '"')),
        )
        .map(([doc, at, cut, insert]) => {
          const i = at % (doc.length + 1);
          return doc.slice(0, i) + insert + doc.slice(i + cut);
        }),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 10, max: 5000 }).map((n) => `{ ${'a { '.repeat(n)}b${' }'.repeat(n + 1)}`),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 10, max: 3000 }).map((n) => `{ ${'a: __typename '.repeat(n)}}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
        '{ __schema { types { name fields { name type { name ofType { name } } } } } }',
        `{ __typename ${'@include(if: true) '.repeat(500)}}`,
        'subscription { tavoloChanged { id } }',
        'query ($x: [[[[[[Int]]]]]]) { __typename }',
        '{ __typename(a: {b: {c: {d: [[[[[1]]]]]}}}) }',
        '',
        '#',
      ),
    },
    { weight: 1, arbitrary: hostileString },
  );
};

export const graphqlRequest = (ctx: FuzzContext): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(
          document(ctx),
          fc.option(
            fc.oneof(objectText(jsonText(2), ['id', 'input', 'filter', 'items']), jsonText(1), deepJsonText),
          ),
          fc.option(
            fc.oneof(
              hostileString.map((s) => JSON.stringify(s)),
              jsonText(1),
            ),
          ),
        )
        .map(([query, variables, operationName]) => {
          const entries = [`"query":${JSON.stringify(query)}`];
          if (variables !== null) entries.push(`"variables":${variables}`);
          if (operationName !== null) entries.push(`"operationName":${operationName}`);
          return `{${entries.join(',')}}`;
        })
        .chain((body) =>
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(body) },
            { weight: 1, arbitrary: bodyFor(ctx, ['query', 'variables', 'operationName', 'extensions']) },
          ),
        )
        .chain((body) => withHeaders(ctx, 'POST', '/graphql', body)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(document(ctx), fc.constantFrom('GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'))
        .chain(([query, method]) =>
          withHeaders(ctx, method, `/graphql?query=${encodePart(query)}`, undefined),
        ),
    },
  );

/** Any request the fuzzer sends: REST routes (most), /graphql, and paths outside both. */
export const anyRequest = (ctx: FuzzContext): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    { weight: 6, arbitrary: restRequest(ctx) },
    { weight: 3, arbitrary: graphqlRequest(ctx) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...METHODS),
          fc.array(
            fc.oneof(fc.constantFrom('api', 'graphql', 'public', 'health'), hostileString.map(encodePart)),
            { maxLength: 4 },
          ),
        )
        .chain(([method, parts]) => withHeaders(ctx, method, `/${parts.join('/')}`, undefined)),
    },
  );
