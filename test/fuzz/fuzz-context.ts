import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { apiSchemaOf } from '@coperto/gateway';
import { mintToken, newTenantId } from '@coperto/testkit';
import { operations } from '../../gateway/src/rest/operations.js';
import { routes } from '../../gateway/src/rest/route-table.js';
import type { Stack } from '../support/stack.js';
import type { FuzzContext } from './requests.js';
import { routeShape } from './route-shapes.js';

/** Seeds a tenant with a room and a table (so some ids exist) and gathers what the generators draw from. */
export async function createFuzzContext(stack: Stack): Promise<FuzzContext> {
  const tenant = newTenantId();
  const token = await mintToken({ tenantId: tenant });
  const admin = await mintToken({ tenantId: tenant, admin: true });
  const other = await mintToken({ tenantId: newTenantId() });
  const sala = await stack.api('POST', '/api/sale', { token, body: { codice: 'fuzz' } });
  const tavolo = await stack.api('POST', '/api/tavoli', {
    token,
    body: { nome: 'F1', capacita: 4, salaId: sala.body.id },
  });
  const ids = [sala.body.id, tavolo.body.id].filter((id): id is string => typeof id === 'string');
  expect(ids).toHaveLength(2);
  const schema = apiSchemaOf(readFileSync(resolve(import.meta.dirname, '../../supergraph.graphql'), 'utf8'));
  return {
    shapes: routes.map((route) => routeShape(route, schema)),
    authorizations: [
      `Bearer ${token}`,
      `Bearer ${token}`,
      `Bearer ${admin}`,
      `Bearer ${other}`,
      'Bearer x.y.z',
      'Basic Zm9vOmJhcg==',
      '',
    ],
    ids,
    documents: Object.values(operations),
  };
}

/** Every liveness URL of the stack: the gateway's, and in distributed mode each process's. */
export function liveUrls(stack: Stack): string[] {
  const processes = (stack as Stack & { processes?: { healthPort: number }[] }).processes;
  if (processes) return processes.map((p) => `http://127.0.0.1:${p.healthPort}/public/health/live`);
  return [`${stack.healthUrl}/public/health/live`];
}

/** Throws unless every process answers its liveness probe with 200 within `withinMs`. */
export async function assertLive(stack: Stack, withinMs: number): Promise<void> {
  for (const url of liveUrls(stack)) {
    const response = await fetch(url, { signal: AbortSignal.timeout(withinMs) });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
}
