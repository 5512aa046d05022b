// Fairness through the public port, in both modes, with small limits set in the environment: a tenant that floods
// /api or /graphql gets 429 RATE_LIMITED with Retry-After while another tenant, at the same moment, is answered; in
// distributed mode two gateway instances draw on one budget (Redis). A booking channel's key has budgets of its own,
// per key and per client address (the address a trusted proxy names in X-Forwarded-For: loopback here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { createApi, type ApiResponse } from './support/http.js';
import { MODES, sharedDistributedGateway } from './support/modes.js';
import { startEmbedded, startProcess, type Mode, type ProcessHandle, type Stack } from './support/stack.js';

/**
 * 1 request per second plus a burst of 20 refilled over 20 s: within the few seconds a flood of 60 takes on a
 * loaded machine a tenant gets about 20 + (seconds elapsed) answers, far from 60 and far from 0.
 */
const RATE = 1;
const BURST = 20;
/** A channel key: 1 per second plus 30 for all its guests; 1 per second plus 8 for each client address. */
const CHANNEL_BURST = 30;
const ADDRESS_BURST = 8;
const LIMITS = {
  RATE_LIMIT_TENANT_RPS: String(RATE),
  RATE_LIMIT_TENANT_BURST: String(BURST),
  RATE_LIMIT_CHANNEL_RPS: String(RATE),
  RATE_LIMIT_CHANNEL_BURST: String(CHANNEL_BURST),
  RATE_LIMIT_CHANNEL_ADDRESS_RPS: String(RATE),
  RATE_LIMIT_CHANNEL_ADDRESS_BURST: String(ADDRESS_BURST),
  TRUSTED_PROXIES: 'loopback',
};
const FLOOD = 60;
/** A day to search (any future day: a new tenant's room is empty, the search answers 200 all the same). */
const SEARCH = '/api/disponibilita?data=2027-05-14&coperti=2&ora=20:00';

function startWithLimits(mode: Mode): Promise<Stack & { processes?: ProcessHandle[] }> {
  if (mode === 'embedded') return startEmbedded(LIMITS);
  return sharedDistributedGateway(LIMITS);
}

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);

describe.each(MODES)('rate limits per tenant and per booking channel (%s mode)', (mode) => {
  let stack: Stack & { processes?: ProcessHandle[] };

  beforeAll(async () => {
    stack = await startWithLimits(mode);
  });
  afterAll(async () => {
    await stack?.close();
  });

  const token = () => mintToken({ tenantId: newTenantId() });
  /** 429s this stack answered so far (the metric must count at least these). */
  let refusedSoFar = 0;

  it('answers a flooding tenant 429 RATE_LIMITED with Retry-After on /api while another tenant gets 200', async () => {
    const [flooding, quiet] = [await token(), await token()];
    const flood = Promise.all(
      Array.from({ length: FLOOD }, () => stack.api('GET', '/api/tavoli', { token: flooding })),
    );
    const other = stack.api('GET', '/api/tavoli', { token: quiet });
    const [responses, answered] = [await flood, await other];

    expect(answered.status).toBe(200);
    expect(statuses(responses).filter((s) => s === 200).length).toBeGreaterThanOrEqual(BURST);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    refusedSoFar += limited.length;
    for (const response of limited) {
      expect(response.body.error.code).toBe('RATE_LIMITED');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(statuses(responses).every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('answers a flooding tenant 429 with extensions.code RATE_LIMITED and Retry-After on /graphql', async () => {
    const [flooding, quiet] = [await token(), await token()];
    const query = '{ tavoli { id } }';
    const responses = await Promise.all(Array.from({ length: FLOOD }, () => stack.graphql(flooding, query)));
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    refusedSoFar += limited.length;
    for (const response of limited) {
      expect(response.body.errors[0].extensions.code).toBe('RATE_LIMITED');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const answered = await stack.graphql(quiet, query);
    expect(answered.status).toBe(200);
    expect(answered.body.errors).toBeUndefined();
  });

  /** A new tenant's booking channel key and one of its staff tokens. */
  async function channelOfNewTenant() {
    const tenantId = newTenantId();
    const admin = await mintToken({ tenantId, admin: true });
    const created = await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Sito' } });
    expect(created.status).toBe(201);
    return { key: created.body.key as string, staff: await mintToken({ tenantId }) };
  }
  const search = (key: string, address: string) =>
    stack.api('GET', SEARCH, { token: key, headers: { 'x-forwarded-for': address } });

  it("stops a channel key's flooding address (429) while its other guests and the restaurant's staff are answered", async () => {
    const { key, staff } = await channelOfNewTenant();
    const flood = await Promise.all(Array.from({ length: 25 }, () => search(key, '203.0.113.9')));
    expect(statuses(flood).every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses(flood).filter((s) => s === 200).length).toBeGreaterThanOrEqual(ADDRESS_BURST);
    const limited = flood.filter((r) => r.status === 429);
    // At most the burst and a few seconds' refill answered: well short of the 25 (nor the key's 30).
    expect(limited.length).toBeGreaterThan(5);
    refusedSoFar += limited.length;
    for (const response of limited) {
      expect(response.body.error.code).toBe('RATE_LIMITED');
      expect(response.body.error.message).toContain('from this address');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Another guest of the same page, behind the same proxy, and the restaurant's staff (the tenant's budget,
    // which the channel never spends) are answered.
    expect((await search(key, '198.51.100.4')).status).toBe(200);
    expect((await stack.api('GET', '/api/tavoli', { token: staff })).status).toBe(200);
  });

  it('holds a channel key to its own budget when its guests, each well within their address’s, together exceed it', async () => {
    const { key } = await channelOfNewTenant();
    const responses = await Promise.all(
      Array.from({ length: FLOOD }, (_, i) => search(key, `198.51.100.${i + 1}`)),
    );
    expect(statuses(responses).filter((s) => s === 200).length).toBeGreaterThanOrEqual(CHANNEL_BURST);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    refusedSoFar += limited.length;
    for (const response of limited) {
      expect(response.body.error).toMatchObject({ code: 'RATE_LIMITED' });
      expect(response.body.error.message).toContain('this booking channel:');
    }
  });

  it('counts refused requests in gateway_rate_limited_total, by budget', async () => {
    const text = await fetch(stack.metricsUrl).then((r) => r.text());
    const lines = [...text.matchAll(/^gateway_rate_limited_total\{[^}]*budget="(\w+)"[^}]*\} (\d+)/gm)];
    const byBudget: Record<string, number> = Object.fromEntries(lines.map((m) => [m[1], Number(m[2])]));
    expect(Object.keys(byBudget).sort()).toEqual(['channel_addresses', 'channel_keys', 'tenants']);
    const total = Object.values(byBudget).reduce((sum, n) => sum + n, 0);
    expect(refusedSoFar).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual(refusedSoFar);
  });

  it.runIf(mode === 'distributed')('shares one budget between two gateway instances', async () => {
    const first = stack.processes!.find((p) => p.name === 'gateway')!;
    const second = await startProcess('gateway#2', 'gateway/src/index.ts', first.settings);
    try {
      const api2 = createApi(`http://127.0.0.1:${second.port}`);
      const flooding = await token();
      // The burst used up through the first instance...
      const first429 = await Promise.all(
        Array.from({ length: FLOOD }, () => stack.api('GET', '/api/tavoli', { token: flooding })),
      );
      expect(statuses(first429)).toContain(429);
      // ...is used up on the second one too: with a budget of its own it would answer all of these 10 (its
      // fresh burst of 20); sharing, it answers only what the 1/s rate refilled meanwhile.
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => api2('GET', '/api/tavoli', { token: flooding })),
      );
      expect(statuses(responses).filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(responses.find((r) => r.status === 429)?.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await second.stop();
    }
  });
});
