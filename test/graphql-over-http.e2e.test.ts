// GraphQL over HTTP by the specification: graphql-http's server audits against the gateway's /graphql (both
// modes) and a subgraph port (distributed), and the status of a missing or refused token on every port.
// The audits send no token: fetchFn adds one (docs/api.md lists what is deliberately left out, and why).
import { serverAudits, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId, serverUrls } from '@coperto/testkit';
import { MODES, sharedDistributedGateway } from './support/modes.js';
import {
  DISTRIBUTED_SUBGRAPHS,
  startEmbedded,
  startProcess,
  type Mode,
  type ProcessHandle,
} from './support/stack.js';

/**
 * Audits each endpoint deliberately does not pass, with the reason (docs/api.md, "GraphQL over HTTP").
 * An audit listed here that passes fails the test too, so the list stays true.
 */
const APOLLO_400 =
  'Apollo Server answers a request error with 400 whatever the Accept header; 200 is a SHOULD of the legacy application/json only';
const LEFT_OUT: Record<'gateway' | 'subgraph', Record<string, string>> = {
  gateway: {
    '572B': APOLLO_400,
    FDE2: APOLLO_400,
    '7B9B': APOLLO_400,
  },
  subgraph: {},
};

/**
 * Apollo Server's CSRF prevention runs a GET only with a header a browser cannot send cross-site without a
 * preflight; the audits' GETs send none, so they send this one (as any non-browser client does).
 */
const CSRF_HEADER = { 'apollo-require-preflight': 'true' };

/** Runs every audit with the token (and any other headers) the audits themselves do not send. */
async function audit(url: string, headers: Record<string, string>): Promise<AuditResult[]> {
  const audits = serverAudits({
    url,
    fetchFn: (input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
  });
  return Promise.all(audits.map((a) => a.fn()));
}

function expectConformance(results: AuditResult[], leftOut: Record<string, string>): void {
  const failing = results
    .filter((r) => r.status !== 'ok')
    .map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
  const unexpected = failing.filter((line) => !(line.split(' ')[0]! in leftOut));
  expect(unexpected).toEqual([]);
  const passingButListed = Object.keys(leftOut).filter(
    (id) => results.find((r) => r.id === id)?.status === 'ok',
  );
  expect(passingButListed).toEqual([]);
  expect(results.length).toBeGreaterThan(40);
}

async function postQuery(url: string, authorization: string | undefined) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
  return {
    status: res.status,
    authenticate: res.headers.get('www-authenticate'),
    code: body.errors?.[0]?.extensions?.code,
  };
}

/**
 * The audits ask `__type` (introspection), which distributed mode turns off by default (GRAPHQL_INTROSPECTION):
 * turned on here, so that the audits see the HTTP handling rather than the introspection policy.
 */
async function start(mode: Mode) {
  if (mode === 'embedded') return { ...(await startEmbedded()), subgraphs: undefined };
  return sharedDistributedGateway({ GRAPHQL_INTROSPECTION: 'true' });
}

describe.each(MODES)('GraphQL over HTTP (%s mode)', (mode) => {
  let stack: Awaited<ReturnType<typeof start>>;
  let token: string;
  const started: ProcessHandle[] = [];
  const subgraphUrl = (name: string) => `http://127.0.0.1:${stack.subgraphs![name]![0]!.port}/graphql`;

  beforeAll(async () => {
    stack = await start(mode);
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop()));
    await stack?.close();
  });

  it("the gateway's /graphql passes graphql-http's server audits", async () => {
    const results = await audit(`${stack.baseUrl}/graphql`, { authorization: bearer(token), ...CSRF_HEADER });
    expectConformance(results, LEFT_OUT.gateway);
  });

  it('the gateway answers a missing or refused token with 401 and WWW-Authenticate: Bearer', async () => {
    for (const authorization of [undefined, 'Bearer not-a-jwt']) {
      expect(await postQuery(`${stack.baseUrl}/graphql`, authorization)).toEqual({
        status: 401,
        authenticate: expect.stringMatching(/^Bearer/),
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it('refuses a malformed date in a literal or a variable at validation, before any resolver runs', async () => {
    const own = await mintToken({ tenantId: newTenantId() });
    const post = async (query: string, variables?: Record<string, unknown>) => {
      const res = await fetch(`${stack.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: bearer(own) },
        body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
      });
      const body = (await res.json()) as {
        data?: unknown;
        errors?: { message: string; extensions?: { code?: string; details?: unknown } }[];
      };
      return { status: res.status, body };
    };
    // Mutations run in order: the table would be created before the booking's date were read by a resolver.
    const literal = await post(
      'mutation { t: createTavolo(input: { name: "T1", seats: 2 }) { id } p: createPrenotazione(input: { covers: 2, customerName: "Rossi", dataOra: "2026-02-30T20:00" }) { id } }',
    );
    expect(literal.status).toBe(400);
    expect(literal.body.data).toBeUndefined();
    expect(literal.body.errors).toEqual([
      {
        message:
          'Expected value of type "LocalDateTime", found "2026-02-30T20:00"; LocalDateTime cannot represent "2026-02-30T20:00": expected an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS]',
        extensions: { code: 'VALIDATION_FAILED', requestId: expect.any(String) },
      },
    ]);
    const variable = await post(
      'mutation ($at: LocalDateTime) { t: createTavolo(input: { name: "T2", seats: 2 }) { id } p: createPrenotazione(input: { covers: 2, customerName: "Rossi", dataOra: $at }) { id } }',
      { at: 'tomorrow at eight' },
    );
    expect(variable.status).toBe(400);
    expect(variable.body.data).toBeUndefined();
    expect(variable.body.errors?.map((e) => e.extensions)).toEqual([
      {
        code: 'VALIDATION_FAILED',
        requestId: expect.any(String),
        details: {
          fields: [
            {
              field: 'at',
              message:
                'LocalDateTime cannot represent "tomorrow at eight": expected an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS]',
            },
          ],
        },
      },
    ]);
    // Neither request ran a resolver: the tenant has no table.
    expect((await post('{ tavoli { id } }')).body).toEqual({ data: { tavoli: [] } });
  });

  describe.runIf(mode === 'distributed')('the subgraph ports', () => {
    it("the tavolo port passes graphql-http's server audits", async () => {
      const results = await audit(subgraphUrl('tavolo'), { authorization: bearer(token) });
      expectConformance(results, LEFT_OUT.subgraph);
    });

    it.each(DISTRIBUTED_SUBGRAPHS)(
      'the %s port answers a missing or refused token with 401 and WWW-Authenticate: Bearer',
      async (name) => {
        for (const authorization of [undefined, 'Bearer not-a-jwt']) {
          expect(await postQuery(subgraphUrl(name), authorization)).toEqual({
            status: 401,
            authenticate: expect.stringMatching(/^Bearer/),
            code: 'UNAUTHENTICATED',
          });
        }
      },
    );

    it("a token the gateway accepts but a subgraph refuses is the gateway's UNAUTHENTICATED, not a 500", async () => {
      // A second gateway that trusts another secret than the subgraphs: its token passes the gateway, then a
      // subgraph answers 401.
      const otherSecret = 'another-secret-than-the-subgraphs-at-least-32-chars';
      const urls = Object.fromEntries(
        DISTRIBUTED_SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, subgraphUrl(name)]),
      );
      const { mongoUrl, natsUrl, redisUrl } = serverUrls();
      const gateway = await startProcess('gateway-other-secret', 'gateway/src/index.ts', {
        ...urls,
        MONGO_URL: mongoUrl,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        COPERTO_MODE: 'distributed',
        JWT_SECRET: otherSecret,
      });
      started.push(gateway);
      const foreign = await mintToken({ tenantId: newTenantId(), secret: otherSecret });
      const res = await fetch(`http://127.0.0.1:${gateway.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: bearer(foreign) },
        body: JSON.stringify({ query: '{ tavoli { id } }' }),
      });
      const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    });
  });
});
