import { EMAIL_MAX_LENGTH, isEmailAddress } from '@coperto/domain';
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** The country of numbers written without a prefix when the tenant has set none. */
export const DEFAULT_COUNTRY = 'IT';

/**
 * A phone number in E.164 (`+393331234567`), or null when it is not a valid number. A number without an
 * international prefix takes `country` (ISO 3166 alpha-2).
 */
export function normalizePhone(raw: string | null | undefined, country: string): string | null {
  if (!raw || raw.trim() === '') return null;
  const parsed = parsePhoneNumberFromString(raw, country as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** Whether libphonenumber has the numbering plan of the country (ISO 3166 alpha-2, upper case). */
export function isPhoneCountry(country: string): boolean {
  return isSupportedCountry(country);
}

/** An email address trimmed and lower-cased, or null when it is not one. */
export function normalizeEmail(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const email = raw.trim().toLowerCase();
  return isEmailAddress(email) && email.length <= EMAIL_MAX_LENGTH ? email : null;
}

/** The key of a contact in `ospiti_recapiti`: the record that says which guest owns it. */
export function contactKey(kind: 'tel' | 'email', value: string): string {
  return `${kind}:${value}`;
}
