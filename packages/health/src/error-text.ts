const URL_PATTERN = /\b([a-z][a-z0-9+.-]*):\/\/[^\s'"<>]+/gi;
const SECRET_PATTERN = /\b(password|passwd|pwd|secret|token|authorization)(\s*[=:]\s*)\S+/gi;
const MAX_LENGTH = 200;

/**
 * Error text safe to show on a public health endpoint: the first line of the message only (never a stack),
 * URLs reduced to their scheme (connection strings can carry passwords), `password=…` values masked,
 * at most 200 characters.
 */
export function safeErrorText(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = error.message || error.name || 'Error';
  else if (typeof error === 'string') text = error;
  else text = 'check failed';
  text = (text.split('\n')[0] ?? '').trim() || 'check failed';
  text = text.replace(URL_PATTERN, (_url, scheme: string) => `${scheme}://<redacted>`);
  text = text.replace(SECRET_PATTERN, (_m, key: string, sep: string) => `${key}${sep}<redacted>`);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
