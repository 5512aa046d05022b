import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@coperto/errors';
import { isJsonContentType, jsonDepthExceeds } from './json-depth.js';

/** `application/json` and `application/*+json`, with any parameters (the charset is checked by the parser). */
const JSON_TYPES = /^application\/(?:[\w.-]+\+)?json(?:\s*;.*)?$/i;

/**
 * A fastify instance's only body parser: JSON in UTF-8 (another charset is a 415, another type has no parser:
 * 415), an empty body is no body, nesting past `maxDepth` and bad JSON are a 400 naming `body`. The size limit
 * (413) is fastify's `bodyLimit`, checked on Content-Length first, then while reading.
 */
export function useJsonBodies(app: FastifyInstance, maxDepth: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (request, text, done) => {
    if (!isJsonContentType(request.headers['content-type'])) return done(new UnsupportedMediaTypeError());
    const body = text as string;
    if (body.length === 0) return done(null, undefined);
    if (jsonDepthExceeds(body, maxDepth)) {
      return done(
        new ValidationError(
          [{ field: 'body', message: `nests deeper than ${maxDepth} levels` }],
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

/**
 * An error met while reading a body, as an AppError: the parser's own, fastify's 413 (over `bodyLimitBytes`),
 * 415 (no parser for the media type), any other 4xx of fastify's as a 400 naming `body`. Undefined for
 * anything else (an internal error).
 */
export function bodyErrorOf(error: FastifyError, bodyLimitBytes: number): AppError | undefined {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError(formatBytes(bodyLimitBytes));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new UnsupportedMediaTypeError();
    default:
      return (error.statusCode ?? 500) < 500
        ? new ValidationError([{ field: 'body', message: error.message }], 'Malformed request')
        : undefined;
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
