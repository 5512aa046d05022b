import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { buildSchema, getNamedType, isObjectType } from 'graphql';
import { natsSubject, subjectMatches, subjectTypeOf } from '@coperto/bus';
import { asyncApiDocument, channelKey, EVENT_CHANNELS } from '../../src/pages/asyncapi/index.js';
import { SUBSCRIPTION_SCHEMA_FILE } from '../../src/subscriptions/subscription-schema.js';

/**
 * Every event a test receives, checked against the AsyncAPI document the gateway serves (`GET /asyncapi.json`,
 * built here from the same table and types): a bus or NATS event against its subject's message, a GraphQL
 * subscription message against the same message with only the fields it selected. Collectors report what does
 * not match with `recordViolation`; the e2e setup (test/support/event-contract-setup.ts) fails the test.
 */
type Channels = Readonly<Record<string, { record: string }>>;
const channels: Channels = EVENT_CHANNELS;

let whole: { ajv: Ajv; compiled: Map<string, ValidateFunction> } | undefined;
let selected: { ajv: Ajv; compiled: Map<string, ValidateFunction> } | undefined;

/** The document without `required`: what a GraphQL selection of some of the fields must still satisfy. */
function withoutRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRequired);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'required')
      .map(([key, v]) => [key, withoutRequired(v)]),
  );
}

function validator(partial: boolean, eventType: string): ValidateFunction {
  const state = partial ? selected : whole;
  const target =
    state ??
    (() => {
      const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
      const document = asyncApiDocument();
      ajv.addSchema(partial ? (withoutRequired(document) as object) : document, 'asyncapi.json');
      const created = { ajv, compiled: new Map<string, ValidateFunction>() };
      if (partial) selected = created;
      else whole = created;
      return created;
    })();
  let validate = target.compiled.get(eventType);
  if (!validate) {
    validate = target.ajv.compile({
      $ref: `asyncapi.json#/components/messages/${channelKey(eventType)}/payload`,
    });
    target.compiled.set(eventType, validate);
  }
  return validate;
}

const describeEvent = (event: unknown) => JSON.stringify(event).slice(0, 400);

/** Why an event received on a NATS subject does not match the document; undefined when it matches. */
export function eventViolation(subject: string, event: unknown): string | undefined {
  const match = /^tenant\.([^.]+)\.restaurant\.(.+)$/.exec(subject);
  // The message is the envelope's type; several types may share a subject (waitlist.* on waitlist.updated).
  const declared = (event as { type?: unknown } | null)?.type;
  const eventType = typeof declared === 'string' && declared in channels ? declared : match?.[2];
  if (!match || !eventType || !(eventType in channels) || subjectTypeOf(eventType) !== match[2]) {
    return `AsyncAPI: no channel for subject ${subject} and type ${String(declared)}`;
  }
  const tenant = match[1]!;
  const validate = validator(false, eventType);
  if (!validate(event)) {
    return `AsyncAPI: ${subject} does not match its message: ${validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}\n${describeEvent(event)}`;
  }
  if ((event as { tenantid?: unknown }).tenantid !== tenant) {
    return `AsyncAPI: ${subject} carries tenantid ${String((event as { tenantid?: unknown }).tenantid)}`;
  }
  return undefined;
}

/**
 * Why an event delivered to a subscription on `pattern` (NATS wildcards allowed) does not match the document:
 * its subject is the one its envelope names (tenant and type), which must match the pattern.
 */
export function busEventViolation(pattern: string, event: unknown): string | undefined {
  const { tenantid, type } = (event ?? {}) as { tenantid?: unknown; type?: unknown };
  const subject = natsSubject(String(tenantid), String(type));
  if (!subjectMatches(pattern, subject)) {
    return `AsyncAPI: an event on ${pattern} names tenant ${String(tenantid)} and type ${String(type)}\n${describeEvent(event)}`;
  }
  return eventViolation(subject, event);
}

let recordOfField: Map<string, string> | undefined;

/** The record type (`data`) of each subscription field, from the subscription schema. */
function recordOf(field: string): string | undefined {
  recordOfField ??= new Map(
    Object.entries(
      buildSchema(readFileSync(SUBSCRIPTION_SCHEMA_FILE, 'utf8')).getSubscriptionType()?.getFields() ?? {},
    ).flatMap(([name, f]) => {
      const event = getNamedType(f.type);
      const data = isObjectType(event) ? event.getFields().data : undefined;
      return data ? [[name, getNamedType(data.type).name] as [string, string]] : [];
    }),
  );
  return recordOfField.get(field);
}

function withoutTypename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypename);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '__typename')
      .map(([key, v]) => [key, withoutTypename(v)]),
  );
}

/**
 * Why a GraphQL subscription message (`{ <field>: <event> }`) does not match the document: each selected
 * envelope and record field as the event's message describes it. Undefined when it matches.
 */
export function subscriptionViolation(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return `AsyncAPI: not a subscription message`;
  for (const [field, value] of Object.entries(message)) {
    const record = recordOf(field);
    const candidates = Object.keys(channels).filter((type) => channels[type]!.record === record);
    if (candidates.length === 0) return `AsyncAPI: no event type for subscription field ${field}`;
    const event = withoutTypename(value) as { type?: unknown };
    const eventType = typeof event.type === 'string' ? event.type : candidates[0]!;
    if (!candidates.includes(eventType)) return `AsyncAPI: ${field} delivered an event of type ${eventType}`;
    const validate = validator(true, eventType);
    if (!validate(event)) {
      return `AsyncAPI: ${field} does not match ${eventType}: ${validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}\n${describeEvent(value)}`;
    }
  }
  return undefined;
}

const violations: string[] = [];

/** Records a mismatch found while a test runs (collectors cannot throw into the test). */
export function recordViolation(violation: string | undefined): void {
  if (violation) violations.push(violation);
}

/** The mismatches recorded since the last call. */
export function takeViolations(): string[] {
  return violations.splice(0);
}
