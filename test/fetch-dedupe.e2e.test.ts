import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const BACK_OFFICE_QUERY = `query FloorOverview { sale { id codice tavoli { id nome capacita stato } } }`;

async function sharedFetches(stack: Stack): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('gateway_subgraph_fetches_shared_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe.each(MODES)('identical subgraph fetches in flight share one execution (%s)', (mode) => {
  let stack: Stack;
  const tenants = [newTenantId(), newTenantId()];
  const tokens: string[] = [];

  beforeAll(async () => {
    stack = await startStack(mode);
    for (const tenantId of tenants) {
      const token = await mintToken({ tenantId });
      tokens.push(token);
      const sala = await stack.api('POST', '/api/sale', { token, body: { codice: `sala-${tenantId}` } });
      expect(sala.status).toBe(201);
      for (const nome of ['T1', 'T2', 'T3']) {
        const created = await stack.api('POST', '/api/tavoli', {
          token,
          body: { nome: `${nome}-${tenantId}`, capacita: 4, salaId: sala.body.id },
        });
        expect(created.status).toBe(201);
      }
    }
  });
  afterAll(async () => stack?.close());

  it('answers two tenants bursting the same query at once, each with its own data only', async () => {
    const before = await sharedFetches(stack);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stack.graphql(tokens[i % 2], BACK_OFFICE_QUERY)),
    );
    for (const [i, answer] of burst.entries()) {
      const tenantId = tenants[i % 2]!;
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      const sale = answer.body.data.sale as Array<{ codice: string; tavoli: Array<{ nome: string }> }>;
      expect(sale.map((s) => s.codice)).toEqual([`SALA-${tenantId}`.toUpperCase()]);
      expect(sale[0]!.tavoli.map((t) => t.nome).sort()).toEqual(
        ['T1', 'T2', 'T3'].map((n) => `${n}-${tenantId}`),
      );
    }
    if (mode === 'distributed') {
      // Over HTTP a fetch takes a round trip: thirty identical requests per token overlap and share.
      expect(await sharedFetches(stack)).toBeGreaterThan(before);
    }
  });
});
