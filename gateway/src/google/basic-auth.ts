import { createHash, timingSafeEqual } from 'node:crypto';

/** Google's partner credentials (GOOGLE_BOOKING_USER / GOOGLE_BOOKING_PASSWORD). */
export interface BasicCredentials {
  user: string;
  password: string;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an Authorization header carries exactly these HTTP Basic credentials (compared in constant time). Without
 * configured credentials nothing passes: the booking server is closed until the operator sets them.
 */
export function basicAuthMatcher(
  credentials: BasicCredentials | undefined,
): (header: string | undefined) => boolean {
  if (!credentials) return () => false;
  const expected = digest(`${credentials.user}:${credentials.password}`);
  return (header) => {
    const match = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(header?.trim() ?? '');
    if (!match) return false;
    return timingSafeEqual(digest(Buffer.from(match[1]!, 'base64').toString('utf8')), expected);
  };
}
