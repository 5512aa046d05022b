import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, sharedDistributedGateway } from './support/modes.js';
import { startEmbedded, type Mode, type Stack } from './support/stack.js';

const ALLOWED = 'http://waiter.example';
const env = { CORS_ORIGINS: `${ALLOWED}, http://backoffice.example` };

function start(mode: Mode): Promise<Stack> {
  if (mode === 'embedded') return startEmbedded(env);
  return sharedDistributedGateway(env);
}

describe.each(MODES)('CORS from CORS_ORIGINS (%s mode)', (mode) => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await start(mode);
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  const preflight = (path: string, origin: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, x-request-id',
      },
    });

  it('answers the preflight of an allowed origin on /api, /graphql and /openapi.json', async () => {
    for (const path of ['/api/tavoli/abc/status', '/graphql', '/openapi.json']) {
      const res = await preflight(path, ALLOWED);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods'), path).toContain('PUT');
      const headers = res.headers.get('access-control-allow-headers') ?? '';
      for (const h of ['authorization', 'content-type', 'x-request-id']) expect(headers, path).toContain(h);
    }
  });

  it('lets the page read the answer and its request id and retry-after headers', async () => {
    const res = await fetch(`${stack.baseUrl}/api/tavoli`, {
      headers: { origin: ALLOWED, authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const exposed = res.headers.get('access-control-expose-headers') ?? '';
    expect(exposed).toContain('x-request-id');
    expect(exposed).toContain('retry-after');
  });

  it('gives no CORS headers to another origin', async () => {
    const pre = await preflight('/api/tavoli', 'http://evil.example');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    const res = await fetch(`${stack.baseUrl}/api/tavoli`, {
      headers: { origin: 'http://evil.example', authorization: `Bearer ${token}` },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
