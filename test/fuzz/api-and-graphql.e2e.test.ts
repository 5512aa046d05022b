import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../gateway/src/rest/route-table.js';
import { MODES, startStack } from '../support/modes.js';
import type { Stack } from '../support/stack.js';
import { assertLive, createFuzzContext } from './fuzz-context.js';
import { fuzzOptions, fuzzTimeoutMs } from './fuzz-options.js';
import { anyRequest, type FuzzContext } from './requests.js';
import { send, violation } from './verdict.js';

/** How often (in requests) the fuzzer checks that every process still answers its liveness probe. */
const LIVENESS_EVERY = 25;
/** A request or probe without an answer in this time counts as a frozen process. */
const ANSWER_WITHIN_MS = 30_000;

describe.each(MODES)(
  'fuzz: no input gets a 5xx, an undocumented error or a dead process (%s mode)',
  (mode) => {
    let stack: Stack;
    let context: FuzzContext;

    beforeAll(async () => {
      stack = await startStack(mode);
      context = await createFuzzContext(stack);
    });
    afterAll(async () => stack?.close());

    it('derives an input shape for every route of the gateway route table', () => {
      expect(context.shapes).toHaveLength(routes.length);
      // The recording stand-ins see what the routes read: a filter name and a body field at least.
      const shape = (method: string, path: string) =>
        context.shapes.find((s) => s.method === method && s.path === path);
      expect(shape('GET', '/api/tavoli')?.queryNames).toContain('posizione');
      expect(shape('POST', '/api/tavoli')?.bodyFields).toContain('capacita');
      expect(shape('POST', '/api/prenotazioni/batch')?.bodyFields).toContain('items');
    });

    // Example-based regressions for what the fuzzer found (docs/fuzzing.md "Findings"); each failed before its fix.
    describe('regressions', () => {
      const auth = () => ({ authorization: context.authorizations[0]! });
      const long = 'a'.repeat(1100);

      it('answers 404 for a request target starting with // (was: the gateway process exited, Invalid URL)', async () => {
        const target = '//%F2%B0%86%9A%F2%98%A4%8B%F0%BB%BD%B2/graphql';
        for (const method of ['GET', 'POST']) {
          const res = await send(stack.baseUrl, { method, target, headers: auth() }, ANSWER_WITHIN_MS);
          expect(res?.status).toBe(404);
          expect(JSON.parse(res?.text ?? '{}').error.code).toBe('NOT_FOUND');
        }
        await assertLive(stack, ANSWER_WITHIN_MS);
      });

      it('answers a table filter longer than a cache key (was 500: the cache refused keys over 1024 chars)', async () => {
        const res = await stack.api('GET', `/api/tavoli?posizione=${long}`, { headers: auth() });
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
      });

      it('answers 404 for a table id longer than a cache key (was 500)', async () => {
        const res = await stack.api('GET', `/api/tavoli/${long}`, { headers: auth() });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      });

      it('answers ids longer than an LMDB key (1,100 four-byte characters) as unknown, never 500 (was 500 embedded: ordered-binary threw)', async () => {
        const longId = '\u{1D512}'.repeat(1100);
        const encoded = encodeURIComponent(longId);
        const table = await stack.api('GET', `/api/tavoli/${encoded}`, { headers: auth() });
        expect(table.status).toBe(404);
        const notify = await stack.api('POST', `/api/attesa/${encoded}/avvisa`, { headers: auth() });
        expect(notify.status).toBe(404);
        expect(notify.body.error.code).toBe('NOT_FOUND');
        // The CI run of 2026-11-24: a body naming such a table is the seed's 400 naming tableIds.
        const patch = await stack.api('PATCH', `/api/prenotazioni/${encodeURIComponent('#/x')}`, {
          headers: auth(),
          body: { tableIds: [longId] },
        });
        expect(patch.status).toBe(400);
        expect(patch.body.error.details.fields[0].field).toBe('tableIds');
      });

      it('refuses a batch item nested 5,000 deep with 400 naming the body (was a stack overflow, 503 distributed)', async () => {
        const raw = `{"items":[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}`;
        const res = await stack.api('POST', '/api/prenotazioni/batch', { headers: auth(), raw });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
        expect(res.body.error.details.fields[0].field).toBe('body');
      });

      it('refuses GraphQL variables nested 5,000 deep with 400', async () => {
        const raw = `{"query":"{ __typename }","variables":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
        const res = await stack.api('POST', '/graphql', { headers: auth(), raw });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
      });

      it('answers 400 VALIDATION_FAILED for an operationName the document lacks (was 500 INTERNAL)', async () => {
        const res = await stack.api('POST', '/graphql', {
          headers: auth(),
          body: { query: 'query A { __typename }', operationName: 'B' },
        });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
        const several = await stack.api('POST', '/graphql', {
          headers: auth(),
          body: { query: 'query A { __typename } query B { __typename }' },
        });
        expect(several.status).toBe(400);
        expect(several.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
        const subscription = await stack.api('POST', '/graphql', {
          headers: auth(),
          body: { query: 'subscription { __typename }' },
        });
        expect(subscription.status).toBe(400);
        expect(subscription.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      });
    });

    it(
      'answers every generated request below 500 with a documented error body, and stays live',
      async () => {
        let sent = 0;
        const options = fuzzOptions();
        await assertLive(stack, ANSWER_WITHIN_MS);
        await fc.assert(
          fc.asyncProperty(anyRequest(context), async (request) => {
            const response = await send(stack.baseUrl, request, ANSWER_WITHIN_MS);
            if (++sent % LIVENESS_EVERY === 0) await assertLive(stack, ANSWER_WITHIN_MS);
            if (response === undefined) return; // the client would not send it
            const problem = violation(request, response);
            if (problem)
              throw new Error(
                `${request.method} ${request.target.slice(0, 300)} → ${problem}\n` +
                  `headers: ${JSON.stringify(request.headers).slice(0, 600)}\nbody: ${(request.body ?? '(none)').slice(0, 600)}`,
              );
          }),
          options,
        );
        await assertLive(stack, ANSWER_WITHIN_MS);
        expect(sent).toBeGreaterThanOrEqual(options.path === undefined ? options.numRuns : 1);
      },
      fuzzTimeoutMs(fuzzOptions().numRuns),
    );
  },
);
