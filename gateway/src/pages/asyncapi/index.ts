import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { cloudEventEnvelopeJsonSchema } from '@coperto/bus';
import { SUBSCRIPTION_SCHEMA_FILE } from '../../subscriptions/subscription-schema.js';
import { buildAsyncApiDocument } from './document.js';
import { EVENT_CHANNELS } from './event-channels.js';

export { registerAsyncApiRoute } from './serve.js';
export { channelKey } from './document.js';
export { EVENT_CHANNELS } from './event-channels.js';

/** The version of the event contract (info.version): bump it when an event changes incompatibly. */
const EVENTS_VERSION = '1.0.0';

/** The AsyncAPI 3.0 document of every event subject (served at `GET /asyncapi.json`). */
export function asyncApiDocument(): Record<string, unknown> {
  return buildAsyncApiDocument({
    channels: EVENT_CHANNELS,
    schema: buildSchema(readFileSync(SUBSCRIPTION_SCHEMA_FILE, 'utf8')),
    envelope: cloudEventEnvelopeJsonSchema(),
    version: EVENTS_VERSION,
  });
}
