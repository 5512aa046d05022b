import { InputChecks } from '@coperto/domain';
import { EVENT_TYPES, isEventType } from './event-types.js';
import { MAX_URL_LENGTH, urlShapeProblem, urlTargetProblem } from './delivery/url-guard.js';

export { WEBHOOK_URL_PATTERN } from './delivery/url-guard.js';

const MAX_ENDPOINTS = 50;

/** The limits the service enforces, for the REST facade's request schemas. */
export const WEBHOOK_LIMITS = {
  urlMaxLength: MAX_URL_LENGTH,
  maxEndpoints: MAX_ENDPOINTS,
  deliveriesDefault: 50,
  deliveriesMax: 200,
} as const;

/** What a create or a change names, each attribute by its Italian or English name (English wins). */
export interface WebhookInput {
  url?: string | null;
  eventi?: readonly string[] | null;
  events?: readonly string[] | null;
  attivo?: boolean | null;
  active?: boolean | null;
}

export interface WebhookFields {
  url?: string;
  eventi?: string[];
  attivo?: boolean;
}

/** The fields an input sets, checked; a URL is resolved and must reach public addresses unless `allowPrivate`. */
export async function webhookFields(input: WebhookInput, allowPrivate: boolean): Promise<WebhookFields> {
  const checks = new InputChecks();
  const fields: WebhookFields = {};
  if (input.url === null) checks.add('url', 'cannot be cleared');
  if (typeof input.url === 'string') {
    const problem = urlShapeProblem(input.url) ?? (allowPrivate ? null : await urlTargetProblem(input.url));
    if (problem) checks.add('url', problem);
    else fields.url = input.url;
  }
  const eventsField = input.events != null ? 'events' : 'eventi';
  const events = input.events ?? input.eventi;
  if (events) {
    const unknown = events.find((e) => !isEventType(e));
    if (unknown !== undefined)
      checks.add(eventsField, `unknown event type ${unknown}; one of ${EVENT_TYPES.join(', ')}`);
    else fields.eventi = [...new Set(events)];
  }
  const active = input.active ?? input.attivo;
  if (active != null) fields.attivo = active;
  checks.throwIfAny();
  return fields;
}
