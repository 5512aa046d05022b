import type { ExecutionResult } from 'graphql';

/**
 * The JSON of a `next` message's payload, as graphql-ws writes it: the result's `data`, then `errors` and
 * `extensions` when present (GraphQLError's `toJSON` gives the errors their wire form). Serialized once per
 * event and group, shared by every member.
 */
export function nextPayloadJson(result: ExecutionResult): string {
  const { errors, data, extensions } = result;
  return JSON.stringify({
    ...(data === undefined ? {} : { data }),
    ...(errors ? { errors } : {}),
    ...(extensions ? { extensions } : {}),
  });
}

/**
 * Frames a shared payload as the graphql-transport-ws `next` message of subscription `id` (ids are
 * client-chosen strings, hence the JSON.stringify), without parsing or serializing the payload again.
 * `nextFramer(id)` builds the prefix once per subscription.
 */
export function nextFramer(id: string): (payloadJson: string) => string {
  const prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  return (payloadJson) => `${prefix}${payloadJson}}`;
}
