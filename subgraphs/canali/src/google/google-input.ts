import { InputChecks } from '@coperto/domain';
import { GOOGLE_LIMITS } from './google-records.js';

/** Google's merchant id as the restaurant registered it with Google: visible ASCII characters, no spaces. */
export const MERCHANT_ID_PATTERN = '^[!-~]+$';
const MERCHANT_ID = new RegExp(MERCHANT_ID_PATTERN);

/** The merchant id of `PUT /api/integrazioni/google`, validated (400 naming `merchantId`). */
export function readMerchantId(merchantId: string): string {
  const checks = new InputChecks().text('merchantId', merchantId, {
    min: 1,
    max: GOOGLE_LIMITS.merchantIdMaxLength,
  });
  if (merchantId.length > 0 && !MERCHANT_ID.test(merchantId)) {
    checks.add('merchantId', 'must be visible ASCII characters without spaces');
  }
  checks.throwIfAny();
  return merchantId;
}

/** An id Google sends (idempotency token, user id): non-empty, bounded, no newline. */
export function readGoogleId(field: string, value: string, max: number): string {
  const checks = new InputChecks().text(field, value, { min: 1, max });
  if (/[\n\r]/.test(value)) checks.add(field, 'must be one line');
  checks.throwIfAny();
  return value;
}
