import { isValidTimeZone } from '@coperto/domain';

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical spelling of an IANA zone name ('europe/rome' → 'Europe/Rome'), or null when the runtime does
 * not know it. Bare UTC offsets ('+01:00') are not IANA names and are refused: they have no DST rules.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!ZONE_NAME.test(zone) || !isValidTimeZone(zone)) return null;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}
