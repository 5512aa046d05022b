import { isSubjectToken } from './subject-matcher.js';

/** The tenant an event was published for: its subject's (`tenant.<id>.restaurant.…`), never its body's. */
export function tenantOfSubject(subject: string): string | null {
  const [first, tenant, third] = subject.split('.');
  return first === 'tenant' && third === 'restaurant' && tenant && isSubjectToken(tenant) ? tenant : null;
}
