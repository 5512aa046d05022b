import type { FastifyInstance } from 'fastify';
import { UnsupportedMediaTypeError, ValidationError } from '@coperto/errors';
import { isJsonContentType, jsonDepthExceeds, MAX_JSON_DEPTH } from '@coperto/server-kit';

/** `application/json` and `application/*+json`, with any parameters (the charset is checked by the parser). */
const JSON_TYPES = /^application\/(?:[\w.-]+\+)?json(?:\s*;.*)?$/i;

/**
 * The gateway's only body parser: JSON in UTF-8 (another charset is a 415, another type has no parser: 415),
 * an empty body is no body, nesting past MAX_JSON_DEPTH and bad JSON are a 400 naming `body`. The size limit
 * (413) is fastify's `bodyLimit`, checked on Content-Length first, then while reading.
 */
export function useJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (request, text, done) => {
    if (!isJsonContentType(request.headers['content-type'])) return done(new UnsupportedMediaTypeError());
    const body = text as string;
    if (body.length === 0) return done(null, undefined);
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      return done(
        new ValidationError(
          [{ field: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
          'JSON body nested too deeply',
        ),
      );
    }
    try {
      done(null, JSON.parse(body) as unknown);
    } catch {
      done(new ValidationError([{ field: 'body', message: 'is not valid JSON' }], 'Malformed JSON body'));
    }
  });
}
