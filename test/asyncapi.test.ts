// The AsyncAPI document of the events (GET /asyncapi.json): a valid AsyncAPI 3.0 document by @asyncapi/parser,
// with one channel per event type of the bus and message payloads that accept the events buildEvent makes.
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent, natsSubject } from '@coperto/bus';
import { asyncApiDocument, EVENT_CHANNELS } from '@coperto/gateway';
import { eventViolation } from '../gateway/test/support/event-contract.js';

const document = asyncApiDocument();

describe('the AsyncAPI document', () => {
  it('is a valid AsyncAPI 3.0 document (@asyncapi/parser, no errors or warnings)', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
    expect(
      diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`),
    ).toEqual([]);
    expect(parsed?.version()).toBe('3.0.0');
    const addresses = parsed!
      .channels()
      .all()
      .map((c) => c.address());
    // One channel per subject: the waitlist's change types share waitlist.updated.
    expect(addresses.sort()).toEqual(
      [...new Set(Object.keys(EVENT_CHANNELS).map((type) => natsSubject('{tenantId}', type)))].sort(),
    );
    expect(addresses).toContain('tenant.{tenantId}.restaurant.waitlist.updated');
    expect(parsed!.messages().all().length).toBe(Object.keys(EVENT_CHANNELS).length);
    for (const operation of parsed!.operations().all()) expect(operation.action()).toBe('receive');
  });

  it('refuses an envelope or a record that is not what is published', () => {
    const { event } = buildEvent({
      tenantId: trustedTenantId('t_0123456789'),
      type: 'bookings.cancelled',
      source: '/subgraphs/prenotazione',
      subject: 'p1',
      data: { id: 'p1' },
    });
    expect(eventViolation('tenant.t_0123456789.restaurant.bookings.cancelled', event)).toMatch(/data/);
    expect(
      eventViolation('tenant.t_0123456789.restaurant.bookings.cancelled', { ...event, type: 'x' }),
    ).toMatch(/type/);
    expect(eventViolation('tenant.t_0123456789.restaurant.tables.gone', event)).toMatch(/no channel/);
  });
});
