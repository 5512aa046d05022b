import {
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  getNamedType,
  GraphQLNonNull,
} from 'graphql';
import { natsSubject, subjectTypeOf } from '@coperto/bus';
import { outputSchema, SchemaRegistry, type JsonSchema } from '../openapi/json-schema.js';
import { FIELDS_IN_SOME_EVENTS, type EventChannel } from './event-channels.js';

/** Every field of an object type, and of the object types under it: the record as a whole. */
function wholeRecord(type: GraphQLObjectType): SelectionSetNode {
  return {
    kind: Kind.SELECTION_SET,
    selections: Object.values(type.getFields()).map((field): FieldNode => {
      const named = getNamedType(field.type);
      return {
        kind: Kind.FIELD,
        name: { kind: Kind.NAME, value: field.name },
        ...(isObjectType(named) ? { selectionSet: wholeRecord(named) } : {}),
      };
    }),
  };
}

/** `tables.status` → `tablesStatus`: the key of its channel, operation and message. */
export function channelKey(eventType: string): string {
  return eventType.replace(/[._-]+(.)/g, (_, c: string) => c.toUpperCase());
}

export interface AsyncApiInput {
  channels: Readonly<Record<string, EventChannel>>;
  /** The gateway's subscription schema: the record types the events carry. */
  schema: GraphQLSchema;
  /** The CloudEvents envelope as JSON Schema (from @coperto/bus, the type that builds the events). */
  envelope: JsonSchema;
  version: string;
}

/**
 * The AsyncAPI 3.0 document of the events: per event type a channel on its NATS subject (the tenant a
 * parameter), a `receive` operation and a message whose payload is the CloudEvents envelope with `type` fixed and
 * `data` the record's schema, derived from the subscription schema with the JSON Schema machinery of the OpenAPI
 * document. Pure.
 */
export function buildAsyncApiDocument(input: AsyncApiInput): Record<string, unknown> {
  const registry = new SchemaRegistry();
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const [eventType, channel] of Object.entries(input.channels)) {
    const key = channelKey(eventType);
    const record = input.schema.getType(channel.record);
    if (!isObjectType(record)) throw new Error(`AsyncAPI: ${channel.record} is not an object type`);
    const data = outputSchema(new GraphQLNonNull(record), wholeRecord(record), {
      fragments: {},
      registry,
      nullability: 'every-field',
    });
    messages[key] = {
      name: eventType,
      title: eventType,
      summary: channel.summary,
      contentType: 'application/json',
      headers: {
        type: 'object',
        properties: { 'Nats-Msg-Id': { type: 'string', description: 'The event id (JetStream dedupe)' } },
      },
      payload: {
        allOf: [
          { $ref: '#/components/schemas/CloudEvent' },
          {
            type: 'object',
            properties: { type: { const: eventType }, data },
          },
        ],
      },
    };
    // Several event types may share one subject (the waitlist's changes all go to waitlist.updated): one
    // channel per subject, one message per event type.
    const subjectType = subjectTypeOf(eventType);
    const channelId = channelKey(subjectType);
    const existing = channels[channelId] as { messages: Record<string, unknown> } | undefined;
    if (existing) {
      existing.messages[key] = { $ref: `#/components/messages/${key}` };
    } else {
      channels[channelId] = {
        address: natsSubject('{tenantId}', eventType),
        title: subjectType,
        summary: subjectType === eventType ? channel.summary : `Every ${subjectType.split('.')[0]} change`,
        parameters: { tenantId: { $ref: '#/components/parameters/tenantId' } },
        messages: { [key]: { $ref: `#/components/messages/${key}` } },
      };
    }
    const operationId = `receive${channelId.charAt(0).toUpperCase()}${channelId.slice(1)}`;
    const operation = operations[operationId] as { messages: unknown[] } | undefined;
    if (operation) operation.messages.push({ $ref: `#/channels/${channelId}/messages/${key}` });
    else
      operations[operationId] = {
        action: 'receive',
        title: `Receive ${subjectType}`,
        channel: { $ref: `#/channels/${channelId}` },
        messages: [{ $ref: `#/channels/${channelId}/messages/${key}` }],
      };
  }
  for (const [record, fields] of Object.entries(FIELDS_IN_SOME_EVENTS)) {
    const schema = registry.schemas[record] as { required?: string[] } | undefined;
    if (schema?.required) schema.required = schema.required.filter((f) => !fields.includes(f));
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Coperto events',
      version: input.version,
      description:
        'Every change to a table status or a booking, as a CloudEvents 1.0 JSON envelope on NATS JetStream (stream RESTAURANT, subjects tenant.*.restaurant.>), stored with the record in one atomic write and relayed at least once: deduplicate by id. The gateway mirrors them as GraphQL subscriptions (graphql-ws on /graphql).',
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: 'localhost:4222',
        protocol: 'nats',
        description: 'NATS_URL of the deployment (distributed mode); embedded mode uses an in-process bus.',
      },
    },
    channels,
    operations,
    components: {
      schemas: { CloudEvent: input.envelope, ...registry.schemas },
      messages,
      parameters: {
        tenantId: { description: "The tenant: a subscriber sees only its own tenant's subject." },
      },
    },
  };
}
