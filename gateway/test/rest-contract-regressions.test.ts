import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { adminGatewayWithDocument, bodyProperties, expectRefusedNaming } from './support/rest-inject.js';

/**
 * Each disagreement between /openapi.json and the service found from outside (issue 22, then Schemathesis
 * `--checks all`), as a named regression: the document states the constraint, the gateway enforces exactly it
 * with a REST-speaking 400 naming the field, and what the document allows is not refused for its shape.
 */
describe('REST contract regressions (inject, embedded)', () => {
  const rest = adminGatewayWithDocument();
  const { call } = rest;
  const bodySchema = (path: string, method: string) => bodyProperties(rest.doc, path, method);
  const queryParam = (path: string, name: string) =>
    rest.doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
  const refusedNaming = expectRefusedNaming;
  const newSala = async () =>
    (await call('POST', '/api/sale', { codice: `S${Math.random()}`.slice(0, 12) })).body;
  const newTable = async () => (await call('POST', '/api/tavoli', { name: 'T', seats: 4 })).body;

  it('POST /api/sale: a negative height is out of the documented range (> 0); width null is allowed', async () => {
    expect(bodySchema('/api/sale', 'post').height.exclusiveMinimum).toBe(0);
    refusedNaming(await call('POST', '/api/sale', { codice: 'NEG', height: -1, width: null }), 'height');
    expect((await call('POST', '/api/sale', { codice: 'NULLW', width: null })).status).toBe(201);
  });

  it('POST /api/canali: a body without name|nome is refused as the document says (was ST202: documented as allowed, refused by canali)', async () => {
    expect(rest.doc.paths['/api/canali'].post.requestBody.required).toBe(true);
    refusedNaming(await call('POST', '/api/canali', { origins: ['https://www.example.it'] }), 'nome');
    refusedNaming(await call('POST', '/api/canali', { name: ' ', nome: 'Sito' }), 'name');
    expect((await call('POST', '/api/canali', { name: null, nome: 'Sito' })).status).toBe(201);
    expect((await call('POST', '/api/canali', { name: 'Sito', nome: '' })).status).toBe(201);
  });

  it('PATCH /api/sale/{id}: height 0 is refused as the document says', async () => {
    const sala = await newSala();
    refusedNaming(await call('PATCH', `/api/sale/${sala.id}`, { height: 0 }), 'height');
  });

  it('PATCH /api/prenotazioni/{id}: durationMinutes 0 is below the documented minimum 1', async () => {
    expect(bodySchema('/api/prenotazioni/{id}', 'patch').durationMinutes.minimum).toBe(1);
    refusedNaming(await call('PATCH', '/api/prenotazioni/any', { durationMinutes: 0 }), 'durationMinutes');
  });

  it('PUT /api/tavoli/{id}/status: pax -179 and a totalAmount past 2^53 are refused by the documented range', async () => {
    const schema = bodySchema('/api/tavoli/{id}/status', 'put');
    expect(schema.pax).toMatchObject({ minimum: 0, maximum: 1000 });
    expect(schema.totalAmount.maximum).toBe(Number.MAX_SAFE_INTEGER);
    const table = await newTable();
    refusedNaming(
      await call('PUT', `/api/tavoli/${table.id}/status`, { status: 'occupied', pax: -179 }),
      'pax',
    );
    refusedNaming(
      await call('PUT', `/api/tavoli/${table.id}/status`, { status: 'occupied', totalAmount: 6.9e16 }),
      'totalAmount',
    );
  });

  it('POST /api/tavoli/{id}/lock: a ttl out of the documented range is refused', async () => {
    const ttl = bodySchema('/api/tavoli/{id}/lock', 'post').ttl;
    refusedNaming(await call('POST', '/api/tavoli/any/lock', { deviceId: 'd', ttl: ttl.maximum + 1 }), 'ttl');
  });

  it('PUT /api/capacity/config: timeZone null is refused (the document does not allow null)', async () => {
    expect(bodySchema('/api/capacity/config', 'put').timeZone.type).toBe('string');
    refusedNaming(await call('PUT', '/api/capacity/config', { timeZone: null }), 'timeZone');
  });

  it('POST /api/tavoli/verifica-disponibilita: "salaId": 0 is a 400, not coerced to "0"', async () => {
    const res = await call('POST', '/api/tavoli/verifica-disponibilita', {
      dataOra: '2026-12-24T20:00',
      numeroPersone: 2,
      salaId: 0,
    });
    refusedNaming(res, 'salaId');
  });

  it('GET /api/prenotazioni?state= (empty) is not a valid state', async () => {
    expect(queryParam('/api/prenotazioni', 'state').schema.enum).not.toContain('');
    refusedNaming(await call('GET', '/api/prenotazioni?state='), 'state');
  });

  it('GET /api/capacity/slots?date= is a 400 naming date, in REST words', async () => {
    expect(queryParam('/api/capacity/slots', 'date').required).toBe(true);
    refusedNaming(await call('GET', '/api/capacity/slots?date='), 'date');
    refusedNaming(await call('GET', '/api/capacity/slots'), 'date');
    expect((await call('GET', '/api/capacity/slots?date=2026-02-28')).status).toBe(200);
  });

  it('PATCH with a JSON null body is refused (the document asks for an object)', async () => {
    const sala = await newSala();
    refusedNaming(await call('PATCH', `/api/sale/${sala.id}`, null), 'body');
    refusedNaming(await call('PUT', '/api/capacity/config', null), 'body');
  });

  it('POST /api/tavoli with a room that does not exist is the seed 400 naming roomId (the URL names no room)', async () => {
    refusedNaming(
      await call('POST', '/api/tavoli', { name: 'T1', seats: 4, salaId: 'no-such-room' }),
      'roomId',
    );
  });

  it('PATCH /api/tavoli/{id} moving a created table to a room that does not exist is a 400, never a 404 (Schemathesis ST302: a 404 right after the create reads as "the table is gone")', async () => {
    const table = await newTable();
    const res = await call('PATCH', `/api/tavoli/${table.id}`, { roomId: 'z' });
    refusedNaming(res, 'roomId');
    expect((await call('GET', `/api/tavoli/${table.id}`)).status).toBe(200);
  });

  it('PATCH /api/prenotazioni/{id} naming a table or a combination that does not exist is the seed 400 naming the field', async () => {
    const created = await call('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: '2026-12-24T20:00',
      customerName: 'Rossi',
    });
    expect(created.status).toBe(201);
    refusedNaming(
      await call('PATCH', `/api/prenotazioni/${created.body.id}`, { covers: 5, tableIds: ['0'] }),
      'tableIds',
    );
    refusedNaming(
      await call('PATCH', `/api/prenotazioni/${created.body.id}`, { combinationId: 'no-such-combination' }),
      'combinationId',
    );
  });

  it('POST /api/tavoli/verifica-disponibilita: a year before 1970 is outside the documented dates', async () => {
    const dataOra = bodySchema('/api/tavoli/verifica-disponibilita', 'post').dataOra;
    expect(new RegExp(dataOra.pattern).test('0100-01-01T00:00')).toBe(false);
    expect(new RegExp(dataOra.pattern).test('2028-02-29T20:00')).toBe(true);
    expect(new RegExp(dataOra.pattern).test('2027-02-29T20:00')).toBe(false);
    const res = await call('POST', '/api/tavoli/verifica-disponibilita', {
      dataOra: '0100-01-01T00:00',
      numeroPersone: 1,
    });
    refusedNaming(res, 'dataOra');
    expect(res.body.error.details.fields[0].message).toMatch(/ISO 8601/);
  });

  it('POST /api/tavoli: x and y go together; a null one with a null other (also on PATCH)', async () => {
    const table = await newTable();
    for (const body of [{ x: 10 }, { x: null, y: 2 }, { x: 5, y: null }]) {
      const res = await call('POST', '/api/tavoli', { name: 'G', seats: 2, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [
      { x: null, y: 2 },
      { x: 5, y: null },
    ]) {
      expect((await call('PATCH', `/api/tavoli/${table.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', `/api/tavoli/${table.id}`, { x: 5, y: 6 })).status).toBe(200);
    expect((await call('PATCH', `/api/tavoli/${table.id}`, { x: 7 })).status).toBe(200);
    expect((await call('PATCH', `/api/tavoli/${table.id}`, { x: null, y: null })).status).toBe(200);
  });

  it('a body is documented as required exactly when an absent body ({}) is refused', async () => {
    expect(rest.doc.paths['/api/tavoli/{id}'].patch.requestBody.required).toBe(false);
    expect(rest.doc.paths['/api/tavoli'].post.requestBody.required).toBe(true);
    const table = await newTable();
    expect((await call('PATCH', `/api/tavoli/${table.id}`)).status).toBe(200);
    refusedNaming(await call('POST', '/api/tavoli'), 'name');
  });

  it('POST /api/tavoli/{id}/unlock by another device is the seed 403 LOCK_NOT_OWNED (state)', async () => {
    const table = await newTable();
    expect((await call('POST', `/api/tavoli/${table.id}/lock`, { deviceId: 'a' })).status).toBe(200);
    const res = await call('POST', `/api/tavoli/${table.id}/unlock`, { deviceId: 'b' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('LOCK_NOT_OWNED');
    expect(rest.doc.paths['/api/tavoli/{id}/unlock'].post.responses['403']).toBeDefined();
  });

  it('an undeclared method on a documented path (TRACE, QUERY, HEAD) is a 405 with Allow', async () => {
    for (const method of ['TRACE', 'QUERY', 'HEAD']) {
      const res = await rest.gateway.http.inject({
        method: method as 'GET',
        url: '/api/sale',
        headers: rest.auth,
      });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, POST');
    }
  });

  it('every documented path answers an undeclared method with 405 and its Allow, the Google feed too (ST204 in CI: TRACE /api/integrazioni/google/feed was a 404, QUERY a 400)', async () => {
    expect(rest.doc.paths['/api/integrazioni/google/feed']).toBeDefined();
    for (const [path, item] of Object.entries(rest.doc.paths as Record<string, object>)) {
      const declared = Object.keys(item).map((m) => m.toUpperCase());
      const url = path.replace(/\{[^}]+\}/g, 'x');
      for (const method of ['TRACE', 'QUERY']) {
        const res = await rest.gateway.http.inject({ method: method as 'GET', url, headers: rest.auth });
        expect(res.statusCode, `${method} ${path}`).toBe(405);
        expect(String(res.headers.allow).split(', ').sort(), `${method} ${path}`).toEqual(declared.sort());
      }
    }
  });

  it('POST /api/prenotazioni/batch: 501 items (even null ones) is the documented 413, the document states maxItems 500', async () => {
    const op = rest.doc.paths['/api/prenotazioni/batch'].post;
    expect(op.requestBody.content['application/json'].schema.properties.items.maxItems).toBe(500);
    expect(op.responses['413']).toBeDefined();
    const res = await call('POST', '/api/prenotazioni/batch', {
      items: Array.from({ length: 501 }, () => null),
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('POST /api/prenotazioni/batch links to GET /api/prenotazioni/batch/{id} through batchId (Schemathesis ST302 in CI: it inferred the link from a missing `id` and read /batch/None)', async () => {
    const link = rest.doc.paths['/api/prenotazioni/batch'].post.responses['200'].links.GetBatchUpload;
    expect(link).toEqual({ operationId: 'GetBatchUpload', parameters: { id: '$response.body#/batchId' } });
    expect(rest.doc.paths['/api/prenotazioni/batch/{id}'].get.operationId).toBe('GetBatchUpload');
    const upload = await call('POST', '/api/prenotazioni/batch', {
      items: [{ covers: 2, bookingDate: '2030-01-10T20:00:00', customerName: 'Link' }],
    });
    const pointer = String(link.parameters.id).replace('$response.body#/', '');
    const read = await call('GET', `/api/prenotazioni/batch/${upload.body[pointer]}`);
    expect(read.status).toBe(200);
    expect(read.body.batchId).toBe(upload.body.batchId);
  });

  it('GET /api/prenotazioni/sync: modifiedSince without seconds is accepted as the document says (was ST201: documented as `format: date-time`)', async () => {
    const { schema } = queryParam('/api/prenotazioni/sync', 'modifiedSince');
    expect(schema.format).toBeUndefined();
    expect(new RegExp(schema.pattern, 'u').test('1970-01-01T00:00Z')).toBe(true);
    expect((await call('GET', '/api/prenotazioni/sync?modifiedSince=1970-01-01T00:00Z')).status).toBe(200);
    refusedNaming(
      await call('GET', '/api/prenotazioni/sync?modifiedSince=1970-01-01T00:00'),
      'modifiedSince',
    );
  });

  it('no request parameter or body states a `format` (the gateway checks none): each date is its pattern', () => {
    const formats: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (typeof value !== 'object' || value === null) return;
      if ('format' in value) formats.push(at);
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${key}`);
    };
    for (const [path, item] of Object.entries<any>(rest.doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.name}`);
        walk(op.requestBody, `${method} ${path} body`);
      }
    }
    expect(formats).toEqual([]);
  });

  it('PUT /api/garanzie/politica: a penalty tier needs its hours and percent in either language, nested too (was ST202: `penalties: [{}]` documented as allowed)', async () => {
    const op = rest.doc.paths['/api/garanzie/politica'].put;
    const validate = new Ajv2020({ strict: false }).compile(
      op.requestBody.content['application/json'].schema,
    );
    expect(validate({ penalties: [{}] })).toBe(false);
    expect(validate({ penalties: [{ oreAlmeno: 24, percent: 50 }] })).toBe(true);
    expect(validate({ rules: [{ type: 'deposit', currency: 'eur' }] })).toBe(false);
    refusedNaming(await call('PUT', '/api/garanzie/politica', { penalties: [{}] }), 'penalties.0.minHours');
    const tiers = [{ minHours: 48, percentuale: 0 }];
    expect((await call('PUT', '/api/garanzie/politica', { penalties: tiers })).status).toBe(200);
  });

  it('PUT /api/garanzie/politica: two tiers with the same hours, under either name, are the 400 its description states (was ST202 with every check: a rule between rows)', async () => {
    const op = rest.doc.paths['/api/garanzie/politica'].put;
    expect(op.description).toContain('No two cancellation tiers have the same `minHours|oreAlmeno`');
    // English names win: the second tier's 670 repeats the first's.
    const repeated = [
      { oreAlmeno: 94, minHours: 670, percent: 50 },
      { oreAlmeno: 670, percentuale: 80 },
    ];
    refusedNaming(await call('PUT', '/api/garanzie/politica', { penalties: repeated }), 'penalties');
    const distinct = [
      { oreAlmeno: 94, percent: 50 },
      { oreAlmeno: 670, percentuale: 80 },
    ];
    expect((await call('PUT', '/api/garanzie/politica', { penalties: distinct })).status).toBe(200);
  });

  it('PUT /api/garanzie/politica: a field a nested rule does not have is refused as the document says, in REST words (was ST202: documented as allowed, refused by GraphQL as "not defined by type RegolaGaranziaInput")', async () => {
    const op = rest.doc.paths['/api/garanzie/politica'].put;
    const validate = new Ajv2020({ strict: false }).compile(
      op.requestBody.content['application/json'].schema,
    );
    const tier = { minHours: 24, percent: 50 };
    expect(validate({ penalties: [{ ...tier, colour: 'red' }] })).toBe(false);
    // The body's own top level still ignores other fields (the tenant comes from the token).
    expect(validate({ penalties: [tier], tenantId: 'other' })).toBe(true);
    refusedNaming(
      await call('PUT', '/api/garanzie/politica', { penalties: [{ ...tier, colour: 'red' }] }),
      'penalties.0.colour',
    );
    expect((await call('PUT', '/api/garanzie/politica', { penalties: [tier], tenantId: 'x' })).status).toBe(
      200,
    );
  });

  it('PATCH /api/ospiti/{id}: the email is an address and the lists are never null, as ospiti checks (was ST202: "email must be an email address", "allergie must be a list")', async () => {
    const patch = bodySchema('/api/ospiti/{id}', 'patch');
    for (const list of ['tag', 'tags', 'allergie', 'allergies']) expect(patch[list].type, list).toBe('array');
    expect(patch.consensoMarketing.type).toBe('boolean');
    refusedNaming(await call('PATCH', '/api/ospiti/anyone', { email: 'nope' }), 'email');
    refusedNaming(await call('PATCH', '/api/ospiti/anyone', { allergie: null }), 'allergie');
    await call('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: '2030-01-10T20:00',
      customerName: 'Ugo Contratto',
      customerPhone: '+39 333 765 4321',
    });
    const guest = await vi.waitFor(
      async () => {
        const found = await call('GET', '/api/ospiti?q=contratto');
        expect(found.body).toHaveLength(1);
        return found.body[0];
      },
      { timeout: 15_000, interval: 100 },
    );
    for (const body of [{ email: ' Ugo@Example.com ' }, { email: '' }, { allergie: [] }]) {
      expect((await call('PATCH', `/api/ospiti/${guest.id}`, body)).status, JSON.stringify(body)).toBe(200);
    }
  });

  it('every link in the document targets an operation the document serves, with parameters it takes', () => {
    const operations = new Map<string, { operationId: string; parameters?: { name: string }[] }>();
    for (const item of Object.values(rest.doc.paths) as Record<
      string,
      { operationId: string; parameters?: { name: string }[] }
    >[])
      for (const op of Object.values(item)) operations.set(op.operationId, op);
    const links = Object.values(rest.doc.paths).flatMap((item: any) =>
      Object.values(item).flatMap((op: any) =>
        Object.values(op.responses).flatMap((response: any) => Object.values(response.links ?? {})),
      ),
    ) as { operationId: string; parameters: Record<string, string> }[];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const target = operations.get(link.operationId);
      expect(target, link.operationId).toBeDefined();
      const names = (target!.parameters ?? []).map((p) => p.name);
      for (const name of Object.keys(link.parameters)) expect(names).toContain(name);
    }
  });
});
