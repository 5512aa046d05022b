import { z } from 'zod';

/**
 * The CloudEvents 1.0 JSON envelope of every event this project publishes, declared once: `CloudEvent` (the
 * type `buildEvent` returns) is inferred from it and the AsyncAPI document (`GET /asyncapi.json`) prints it as
 * JSON Schema (`cloudEventEnvelopeJsonSchema`). `data` is the event type's record, described per event type.
 */
export const cloudEventEnvelope = z.strictObject({
  specversion: z.literal('1.0').describe('CloudEvents version'),
  id: z
    .string()
    .min(1)
    .describe('Unique event id, also the Nats-Msg-Id header: delivery is at least once, dedupe by it'),
  source: z.string().min(1).describe('The subgraph that wrote the change, e.g. /subgraphs/tavolo'),
  type: z.string().min(1).describe('The event type, e.g. tables.status; it ends the NATS subject'),
  subject: z.string().min(1).describe('The id of the record the event is about'),
  time: z.iso.datetime().describe('When the change happened (ISO 8601, UTC)'),
  datacontenttype: z.literal('application/json'),
  tenantid: z.string().min(1).describe('The tenant (CloudEvents extension attribute)'),
  data: z.unknown().describe('The whole record after the change'),
});

type Envelope = z.infer<typeof cloudEventEnvelope>;

/**
 * A CloudEvents 1.0 JSON envelope (docs/events.md). `id` is also sent as the `Nats-Msg-Id` header so JetStream
 * drops duplicates from relay retries. `tenantid` is a CloudEvents extension attribute. `subject` (CloudEvents)
 * is the id of the record the event is about; the NATS subject is `tenant.<tenantId>.restaurant.<type>` where
 * `type` is e.g. `tables.status`.
 */
export type CloudEvent<T = unknown> = Omit<Envelope, 'data'> & { data: T };

/** The envelope as JSON Schema (draft-07, the base of AsyncAPI 3.0's schema format). */
export function cloudEventEnvelopeJsonSchema(): Record<string, unknown> {
  const { $schema: _omit, ...schema } = z.toJSONSchema(cloudEventEnvelope, { target: 'draft-7' });
  return schema;
}
