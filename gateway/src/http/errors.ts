import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  PayloadTooLargeError,
  RateLimitedError,
  restErrorBody,
  restErrorFromAppError,
  UnauthenticatedError,
  ValidationError,
  type FieldIssue,
} from '@coperto/errors';
import { EMAIL_FIELD_PATTERN } from '@coperto/domain';
import { bodyErrorOf, type Logger } from '@coperto/server-kit';
import { withRequestId } from './request-id.js';
import { LOCAL_DATE_PATTERN, LOCAL_DATE_TIME_PATTERN, TIMESTAMP_PATTERN } from '../rest/date-patterns.js';
import { NOT_BLANK_PATTERN } from '../rest/input-constraints.js';

/** One ajv error of a request part (body, querystring, params), as fastify reports it. */
interface SchemaIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * The fields a failed schema validation names, in the REST error body's words: `width` (a body field),
 * `input.openingHours.0.weekday` → `openingHours.0.weekday`, a missing or unknown field by its name. Pure.
 */
export function fieldIssues(issues: readonly SchemaIssue[], part: string | undefined): FieldIssue[] {
  return issues.map((issue) => {
    const path = issue.instancePath.split('/').filter(Boolean);
    const named = issue.params.missingProperty ?? issue.params.additionalProperty;
    if (typeof named === 'string') path.push(named);
    const field = path.length > 0 ? path.join('.') : part === 'body' || part === undefined ? 'body' : part;
    return { field, message: issueMessage(issue) };
  });
}

function issueMessage(issue: SchemaIssue): string {
  const { allowedValues, pattern, type } = issue.params;
  if (issue.keyword === 'required') return 'is required';
  if (issue.keyword === 'additionalProperties') return 'is not a field of this object';
  if (Array.isArray(allowedValues))
    return `must be one of ${allowedValues.filter((v) => v !== null).join(', ')}`;
  if (typeof pattern === 'string') return PATTERN_MESSAGES[pattern] ?? 'has an invalid format';
  if (typeof type === 'string') return `must be ${type.split(',').join(' or ')}`;
  return issue.message ?? 'is invalid';
}

/** What each pattern of the request schemas asks for, in words. */
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [LOCAL_DATE_PATTERN]: 'must be a date YYYY-MM-DD',
  [LOCAL_DATE_TIME_PATTERN]: 'must be an ISO 8601 date-time (restaurant-local, or with Z or an offset)',
  [TIMESTAMP_PATTERN]: 'must be an ISO 8601 timestamp with Z or an offset',
  [NOT_BLANK_PATTERN]: 'must not be blank',
  [EMAIL_FIELD_PATTERN]: 'must be an email address',
};

/** A fastify error (schema validation, body reading) as the gateway's AppError; undefined if it is none. */
export function appErrorOf(error: FastifyError, bodyLimitBytes: number): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const issues = error.validation as SchemaIssue[];
    // A batch over its item limit is the seed's 413 (decisions: "batch over 500 items"), not a shape error.
    const tooMany = issues.find((i) => i.keyword === 'maxItems' && i.instancePath === '/items');
    if (error.validationContext === 'body' && tooMany) {
      return new PayloadTooLargeError(`${String(tooMany.params.limit)} items`);
    }
    return new ValidationError(fieldIssues(issues, error.validationContext));
  }
  return bodyErrorOf(error, bodyLimitBytes);
}

/** The headers an error answer carries: `retry-after` on 429, `www-authenticate` on 401. */
export function errorHeaders(error: AppError): Record<string, string> {
  if (error instanceof RateLimitedError) return { 'retry-after': String(error.retryAfterSeconds) };
  if (error.status !== 401) return {};
  const description =
    error instanceof UnauthenticatedError ? error.message.replace(/"/g, "'") : 'invalid token';
  return { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` };
}

/** Answers an error with the REST error body (and its request id); unknown errors are a logged 500. */
export function createErrorHandler(options: { bodyLimitBytes: number; logger: Logger }) {
  return function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const appError = appErrorOf(error, options.bodyLimitBytes);
    if (!appError) {
      options.logger.error('request failed', { error });
      return reply
        .code(500)
        .send(withRequestId(restErrorBody('INTERNAL', 'Internal server error'), request.raw));
    }
    const { status, body } = restErrorFromAppError(appError);
    return reply.code(status).headers(errorHeaders(appError)).send(withRequestId(body, request.raw));
  };
}

/**
 * A request node's HTTP parser refuses (an unknown method, a malformed request line or header): 431 for headers
 * over the limit, 408 for a request too slow to arrive, else 400 with the REST error body. The connection closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const head = (status: string, headers: string) =>
    `HTTP/1.1 ${status}\r\n${headers}Connection: close\r\n\r\n`;
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return void socket.end(head('431 Request Header Fields Too Large', ''));
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end(head('408 Request Timeout', ''));
  const body = JSON.stringify(restErrorBody('VALIDATION_FAILED', 'Malformed HTTP request'));
  socket.end(
    head(
      '400 Bad Request',
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`,
    ) + body,
  );
}
