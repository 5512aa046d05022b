import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../rules/address-policy.js';

export const MAX_URL_LENGTH = 2048;

/**
 * Every URL an endpoint may have matches this (also the REST request schema's pattern): http or https, a host
 * without user name or password, no white space, no fragment.
 */
export const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/@#?\\\\<>^|%]+([/?][^\\s#]*)?$';
const URL_SHAPE = new RegExp(WEBHOOK_URL_PATTERN);

/** Why a URL cannot be an endpoint's, by its text alone (null: it can). */
export function urlShapeProblem(text: string): string | null {
  if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash || text.includes('#')) return 'must not have a fragment';
  if (!URL_SHAPE.test(text)) return 'must not hold white space, nor characters a host cannot have';
  return null;
}

/** The host of a URL as an IP address, when it is one (`[::1]` → `::1`), else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}

type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * Why a (well-shaped) URL may not be sent to: its host is, or resolves to, an address that is not public
 * (null: every address it resolves to is public). A name that does not resolve is refused too.
 */
export async function urlTargetProblem(text: string, resolve: Resolve = resolveAll): Promise<string | null> {
  const url = new URL(text);
  const literal = literalAddress(url);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch {
      return `host ${url.hostname} does not resolve`;
    }
  }
  const refused = addresses.find((a) => !isPublicAddress(a));
  return refused === undefined ? null : `resolves to ${refused}, a private, loopback or link-local address`;
}

/**
 * A `lookup` for the sockets that send webhooks: it resolves as usual and fails when any address is not public,
 * so the address checked is the address connected to (no second resolution a DNS answer could change).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      const problem = Object.assign(
        new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
        { code: 'EADDRNOTPUBLIC' },
      );
      return callback(problem, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
