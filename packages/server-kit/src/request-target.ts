/**
 * A request's path and query, parsed on a fixed origin; null when the target is not a path. A request target in
 * origin form (`/path?query`) always parses. Anything else (`//host/…`, which `new URL(req.url, base)` reads as
 * another host and throws on when that host is not valid, the absolute form, garbage) is null, and the caller
 * answers 404 as for any path it does not serve. Never throws: a throw in a request listener ends the process.
 */
export function requestTarget(raw: string | undefined): URL | null {
  const target = raw ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  const url = `http://request${target}`;
  return URL.canParse(url) ? new URL(url) : null;
}
