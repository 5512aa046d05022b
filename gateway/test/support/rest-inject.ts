import { expect } from 'vitest';
import type { injectableGateway } from './inject-gateway.js';

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
