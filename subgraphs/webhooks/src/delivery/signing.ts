import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The prefix of a secret as Standard Webhooks writes it: `whsec_` + base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes (Standard Webhooks asks for 24 to 64). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The headers of one attempt: Standard Webhooks' id, timestamp (seconds) and one `v1,…` signature per secret. */
export function signedHeaders(
  id: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}
