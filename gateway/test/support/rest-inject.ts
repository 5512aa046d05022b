import { afterAll, beforeAll, expect } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { injectableGateway } from './inject-gateway.js';

type Gateway = Awaited<ReturnType<typeof injectableGateway>>;

/** A REST call through fastify's `inject` with the given headers; a payload goes as JSON. */
export function restCaller(gateway: () => Gateway, headers: () => Record<string, string>) {
  return async (method: string, url: string, payload?: unknown) => {
    const res = await gateway().http.inject({
      method: method as 'GET',
      url,
      headers: { ...headers(), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  };
}

/**
 * An embedded gateway answering through `inject`, for the enclosing describe: a new tenant's administrator token,
 * the served /openapi.json, and a REST caller with that token (read the getters inside tests and hooks).
 */
export function adminGatewayWithDocument() {
  let gateway: Gateway | undefined;
  let auth: Record<string, string> = {};
  let doc: any;
  beforeAll(async () => {
    gateway = await injectableGateway();
    auth = { authorization: `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}` };
    doc = (await gateway.http.inject({ url: '/openapi.json' })).json();
  }, 60_000);
  afterAll(() => gateway?.close());
  return {
    get gateway(): Gateway {
      return gateway!;
    },
    get auth() {
      return auth;
    },
    get doc(): any {
      return doc;
    },
    call: restCaller(
      () => gateway!,
      () => auth,
    ),
  };
}

/** The properties of an operation's JSON request body in the OpenAPI document. */
export function bodyProperties(doc: any, path: string, method: string) {
  return doc.paths[path][method].requestBody.content['application/json'].schema.properties;
}

/** A REST-speaking 400 VALIDATION_FAILED whose details name `field`. */
export function expectRefusedNaming(res: { status: number; body: any }, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_FAILED');
  expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  expect(res.body.error.message).not.toMatch(/Variable|GraphQL/);
}
