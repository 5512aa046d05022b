/** Caps on the sockets one gateway process holds. 0 disables a cap. */
export interface ConnectionCapLimits {
  /** Sockets of one tenant at once (SUBSCRIPTION_MAX_SOCKETS_PER_TENANT). Default 200. */
  maxSocketsPerTenant: number;
  /** Sockets at once, all tenants together (SUBSCRIPTION_MAX_SOCKETS). Default 5000. */
  maxSockets: number;
}

export const DEFAULT_CONNECTION_CAPS: Readonly<ConnectionCapLimits> = Object.freeze({
  maxSocketsPerTenant: 200,
  maxSockets: 5000,
});

export type Admission = { ok: true; release: () => void } | { ok: false; refused: 'tenant' | 'total' };

export interface ConnectionCaps {
  /** Counts one more socket of `tenantId` unless a cap is reached; `release` (idempotent) when it closes. */
  admit(tenantId: string): Admission;
  /** True when the process already holds `maxSockets` (checked before the token is verified). */
  full(): boolean;
  readonly total: number;
  of(tenantId: string): number;
  /** Tenants holding a socket now (an entry each; it goes with the tenant's last socket). */
  readonly tenants: number;
}

/**
 * Counts admitted sockets per tenant and in total, so that one tenant cannot take every socket of a process
 * (each holds memory and a share of the fan-out). The counts are per process: behind a load balancer the
 * caps multiply by the number of gateway instances.
 */
export function createConnectionCaps(limits: ConnectionCapLimits): ConnectionCaps {
  const perTenant = new Map<string, number>();
  let total = 0;
  const full = () => limits.maxSockets > 0 && total >= limits.maxSockets;

  return {
    admit(tenantId) {
      if (full()) return { ok: false, refused: 'total' };
      const count = perTenant.get(tenantId) ?? 0;
      if (limits.maxSocketsPerTenant > 0 && count >= limits.maxSocketsPerTenant)
        return { ok: false, refused: 'tenant' };
      perTenant.set(tenantId, count + 1);
      total++;
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          total--;
          const left = (perTenant.get(tenantId) ?? 1) - 1;
          if (left > 0) perTenant.set(tenantId, left);
          else perTenant.delete(tenantId);
        },
      };
    },
    full,
    get total() {
      return total;
    },
    of: (tenantId) => perTenant.get(tenantId) ?? 0,
    get tenants() {
      return perTenant.size;
    },
  };
}
