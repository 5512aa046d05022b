import { CHANNEL_ROLE, GUEST_ROLE, type Viewer } from '@coperto/auth';
import ipaddr from 'ipaddr.js';

/**
 * The gateway's request budgets (docs/rate-limits.md): a tenant's (staff and administrators), a booking channel
 * key's, a channel key's per client address, and a guest token's (one booking's). Their names are the
 * `bounded_state_*` structures of the memory limiter (`rate_limit_<name>`).
 */
export const BUDGETS = ['tenants', 'channel_keys', 'channel_addresses', 'guest_tokens'] as const;
export type BudgetName = (typeof BUDGETS)[number];

/** One budget a request draws on: which, and the key within it. */
export interface BudgetDraw {
  budget: BudgetName;
  key: string;
}

/** The key of a tenant's budget. */
export const tenantKey = (tenantId: string) => `tenant:${tenantId}`;

/** The key of a booking channel key's budget (a channel is one tenant's: its id is unique within the tenant). */
export const channelKey = (tenantId: string, channelId: string) => `channel:${tenantId}:${channelId}`;

/** The key of one client address's budget on one channel key. */
export const channelAddressKey = (tenantId: string, channelId: string, address: string) =>
  `channel-address:${tenantId}:${channelId}:${addressBucket(address)}`;

/** The key of a guest token's budget: one booking's (every token issued for it shares it). */
export const guestKey = (tenantId: string, bookingId: string) => `guest:${tenantId}:${bookingId}`;

/** Leading 16-bit groups of an IPv6 address that name one client: its /64, what one line or device is given. */
const IPV6_CLIENT_GROUPS = 4;

/**
 * The client an address stands for: an IPv4 address itself (an IPv4-mapped IPv6 address as IPv4), an IPv6 address
 * its /64 (one subscriber is handed a whole /64, so one address each would give an abuser 2^64 budgets). Anything
 * that is not an address (a socket that closed) is kept as given: it is only ever a key.
 */
export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  const groups = parsed.parts.slice(0, IPV6_CLIENT_GROUPS);
  return `${groups.map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * The budgets one request draws on, in the order they are taken: a booking channel's key its own (decisions: "its
 * own rate budget, per key and per client address"), per client address first, so that one abuser is stopped by
 * his address before he spends the key's budget that every other guest of the public page shares; any other
 * token, its tenant's. A channel's requests never spend the tenant's budget: a flood of the public booking page
 * does not lock the restaurant's staff out. A guest token draws on its booking's own budget, never the tenant's:
 * whoever holds one booking's link cannot spend the budget the restaurant's staff work with either.
 */
export function budgetsOf(viewer: Viewer, clientAddress: string): BudgetDraw[] {
  const grant = viewer.grant;
  if (grant?.role === CHANNEL_ROLE) {
    return [
      {
        budget: 'channel_addresses',
        key: channelAddressKey(viewer.tenantId, grant.channelId, clientAddress),
      },
      { budget: 'channel_keys', key: channelKey(viewer.tenantId, grant.channelId) },
    ];
  }
  if (grant?.role === GUEST_ROLE)
    return [{ budget: 'guest_tokens', key: guestKey(viewer.tenantId, grant.bookingId) }];
  return [{ budget: 'tenants', key: tenantKey(viewer.tenantId) }];
}
