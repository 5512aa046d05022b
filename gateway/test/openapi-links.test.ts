import { describe, expect, it } from 'vitest';
import { adminGatewayWithDocument } from './support/rest-inject.js';

interface Link {
  operationId: string;
  parameters: Record<string, string>;
}

/**
 * /openapi.json links a response's id to the operations that take it (gateway/src/pages/openapi/id-links.ts):
 * Schemathesis warned that no links pointed to the combinations, the webhooks or a waitlist entry's seating, so its
 * stateful phase never reached them with a real id.
 */
describe('OpenAPI links: a response id feeds the operations below its path (inject, embedded)', () => {
  const rest = adminGatewayWithDocument();
  const { call } = rest;
  const linksOf = (path: string, method: string, status: string): Record<string, Link> =>
    rest.doc.paths[path][method].responses[status].links ?? {};
  /** The path a link leads to: its parameters resolved against the answer and the request that led there. */
  const follow = (template: string, link: Link, requestPath: Record<string, string>, body: unknown) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const expression = link.parameters[name]!;
      if (expression.startsWith('$request.path.')) return requestPath[expression.slice(14)]!;
      const pointer = expression.replace('$response.body#/', '').split('/');
      return String(pointer.reduce((value: any, key) => value[key], body));
    });

  it('links each create to every operation on the created resource, by its id', () => {
    const expected: Record<string, string[]> = {
      '/api/combinazioni': ['GetCombinazione', 'UpdateCombinazione', 'DeleteCombinazione'],
      '/api/attesa': ['GetVoceAttesa', 'AvvisaAttesa', 'SiediAttesa', 'AnnullaAttesa'],
      '/api/webhooks': [
        'GetWebhook',
        'UpdateWebhook',
        'DeleteWebhook',
        'RuotaSegretoWebhook',
        'ConsegneWebhook',
      ],
    };
    for (const [path, operations] of Object.entries(expected)) {
      const status = Object.keys(rest.doc.paths[path].post.responses).find((s) => s.startsWith('2'))!;
      const links = linksOf(path, 'post', status);
      expect(Object.keys(links).sort(), path).toEqual([...operations].sort());
      for (const link of Object.values(links)) expect(link.parameters).toEqual({ id: '$response.body#/id' });
    }
    // A resource no request creates (deliveries) is reached from its list, the list's own path id passed along.
    expect(linksOf('/api/webhooks/{id}/consegne', 'get', '200').ReinviaConsegnaWebhook).toEqual({
      operationId: 'ReinviaConsegnaWebhook',
      parameters: { id: '$request.path.id', consegnaId: '$response.body#/0/id' },
    });
    // A body without `id` gets no guessed link: the batch keeps its declared one through batchId.
    expect(linksOf('/api/prenotazioni/batch', 'post', '200')).toEqual({
      GetBatchUpload: { operationId: 'GetBatchUpload', parameters: { id: '$response.body#/batchId' } },
    });
  });

  it('a followed link reaches the created resource: a waitlist entry, then its seating', async () => {
    const added = await call('POST', '/api/attesa', { customerName: 'Link', covers: 2 });
    expect(added.status).toBe(201);
    const links = linksOf('/api/attesa', 'post', '201');
    const read = await call('GET', follow('/api/attesa/{id}', links.GetVoceAttesa!, {}, added.body));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(added.body.id);
    const table = await call('POST', '/api/tavoli', { name: 'L1', seats: 2 });
    const seatAt = follow('/api/attesa/{id}/siedi', links.SiediAttesa!, {}, added.body);
    const seated = await call('POST', seatAt, { tableIds: [table.body.id] });
    expect(seated.status).toBe(200);
    expect(seated.body).toMatchObject({ id: added.body.id, state: 'seated' });
  });
});
