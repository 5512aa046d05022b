import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { describe, expect, it } from 'vitest';
import { deferred } from '@coperto/testkit';
import type { GatewayContext } from '../src/graphql/context.js';
import { dedupeInFlight, sharingKey } from '../src/host/fetch-dedupe.js';

type Response = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** A subgraph whose answers the test releases by hand, counting the fetches that reach it. */
function controlledSubgraph() {
  const pending: Array<ReturnType<typeof deferred<Response>>> = [];
  const source: GraphQLDataSource<GatewayContext> = {
    process: () => {
      const answer = deferred<Response>();
      pending.push(answer);
      return answer.promise;
    },
  };
  return { source, pending };
}

function fetchOf(options: {
  token?: string;
  operation?: 'query' | 'mutation';
  query?: string;
  variables?: Record<string, unknown>;
}): GraphQLDataSourceProcessOptions<GatewayContext> {
  const context = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const built = {
    kind: 'incoming operation',
    request: {
      query: options.query ?? 'query Sale__sala__0{sale{id codice}}',
      variables: options.variables ?? {},
      operationName: 'Sale__sala__0',
    },
    incomingRequestContext: { operation: { operation: options.operation ?? 'query' }, context },
    context,
  };
  return built as unknown as GraphQLDataSourceProcessOptions<GatewayContext>;
}

const answer = (codice: string): Response => ({ data: { sale: [{ id: '1', codice }] } });

describe('coalescing identical subgraph fetches in flight', () => {
  it('runs one fetch for identical concurrent fetches of one token, each caller with its own copy', async () => {
    const { source, pending } = controlledSubgraph();
    let shared = 0;
    const dedupe = dedupeInFlight(source, () => (shared += 1));
    const callers = [1, 2, 3].map(() => dedupe.process(fetchOf({ token: 'a' })));
    expect(pending).toHaveLength(1);
    expect(shared).toBe(2);
    pending[0]!.resolve(answer('TERRAZZA'));
    const results = await Promise.all(callers);
    for (const result of results) expect(result).toEqual(answer('TERRAZZA'));
    // Apollo Gateway merges into what it receives: one plan's changes never show in another's copy.
    (results[0]!.data as { sale: Array<{ codice: string }> }).sale[0]!.codice = 'CHANGED';
    expect((results[1]!.data as { sale: Array<{ codice: string }> }).sale[0]!.codice).toBe('TERRAZZA');
    expect(results[1]).not.toBe(results[2]);
  });

  it('hands a lone caller the response itself', async () => {
    const { source, pending } = controlledSubgraph();
    const dedupe = dedupeInFlight(source);
    const lone = dedupe.process(fetchOf({ token: 'a' }));
    const response = answer('SALA');
    pending[0]!.resolve(response);
    expect(await lone).toBe(response);
  });

  it('never shares across tokens, variables, or for a mutation or an unauthenticated fetch', async () => {
    const { source, pending } = controlledSubgraph();
    const dedupe = dedupeInFlight(source);
    void dedupe.process(fetchOf({ token: 'tenant-a' }));
    void dedupe.process(fetchOf({ token: 'tenant-b' }));
    void dedupe.process(fetchOf({ token: 'tenant-a', variables: { id: 2 } }));
    void dedupe.process(fetchOf({ token: 'tenant-a', operation: 'mutation' }));
    void dedupe.process(fetchOf({ token: 'tenant-a', operation: 'mutation' }));
    void dedupe.process(fetchOf({}));
    void dedupe.process(fetchOf({}));
    expect(pending).toHaveLength(7);
    for (const p of pending) p.resolve(answer('X'));
  });

  it('shares no fetch of a mutation even when the incoming operation is a query', () => {
    expect(sharingKey(fetchOf({ token: 'a', query: 'mutation { x }' }))).toBeUndefined();
    expect(sharingKey(fetchOf({ token: 'a' }))).toContain('Bearer a');
  });

  it('runs again once the fetch has answered: nothing is cached', async () => {
    const { source, pending } = controlledSubgraph();
    const dedupe = dedupeInFlight(source);
    const first = dedupe.process(fetchOf({ token: 'a' }));
    pending[0]!.resolve(answer('ONE'));
    await first;
    const second = dedupe.process(fetchOf({ token: 'a' }));
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(answer('TWO'));
    expect(await second).toEqual(answer('TWO'));
  });

  it('gives every waiting caller the failure, and the next fetch runs afresh', async () => {
    const { source, pending } = controlledSubgraph();
    const dedupe = dedupeInFlight(source);
    const callers = [1, 2].map(() => dedupe.process(fetchOf({ token: 'a' })));
    pending[0]!.reject(new Error('subgraph down'));
    for (const caller of callers) await expect(caller).rejects.toThrow('subgraph down');
    void dedupe.process(fetchOf({ token: 'a' }));
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(answer('BACK'));
  });
});
