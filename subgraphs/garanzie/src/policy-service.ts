import { requireAdmin, type Viewer } from '@coperto/auth';
import { AppError, WriteConflictError } from '@coperto/errors';
import type { GaranzieStore } from './garanzie-store.js';
import type { PoliticaGaranzieInput } from './generated/resolvers-types.js';
import { checkAccountId, defaultPolicy, policyFromInput, type PoliticaRecord } from './policy.js';

/** The policy as the API shows it: the record, and whether guarantees can be taken at all. */
export interface PolicyView extends PoliticaRecord {
  stripeConfigured: boolean;
}

const MAX_CAS_ATTEMPTS = 8;

/** Reads and replaces a tenant's guarantee policy and its Stripe connected account. */
export class PolicyService {
  constructor(
    private readonly deps: {
      store: GaranzieStore;
      viewer: Viewer;
      stripeConfigured: boolean;
      now: () => Date;
    },
  ) {}

  async get(): Promise<PolicyView> {
    return this.view((await this.deps.store.policy()) ?? defaultPolicy(this.deps.now().toISOString()));
  }

  /** The whole policy but the account; rules while no Stripe key is configured: 409, nothing stored. */
  update(input: PoliticaGaranzieInput): Promise<PolicyView> {
    requireAdmin(this.deps.viewer, 'change the guarantee policy');
    const fields = policyFromInput(input);
    if (fields.regole.length > 0 && !this.deps.stripeConfigured) {
      throw new AppError(
        'STRIPE_NOT_CONFIGURED',
        'Guarantees need Stripe: this service has no STRIPE_SECRET_KEY, so a policy with rules is refused',
      );
    }
    return this.change((current) => ({ ...current, ...fields }));
  }

  updateAccount(accountId: string | null | undefined): Promise<PolicyView> {
    requireAdmin(this.deps.viewer, 'set the Stripe account');
    const stripeAccount = checkAccountId(accountId);
    return this.change((current) => ({ ...current, stripeAccount }));
  }

  private async change(apply: (current: PoliticaRecord) => PoliticaRecord): Promise<PolicyView> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const now = this.deps.now().toISOString();
      const current = (await this.deps.store.policy()) ?? defaultPolicy(now);
      const next = { ...apply(current), version: current.version + 1, updatedAt: now };
      const saved = await this.deps.store.savePolicy(current.version, next);
      if (saved) return this.view(saved);
    }
    throw new WriteConflictError('PoliticaGaranzie', 'politica');
  }

  private view(record: PoliticaRecord): PolicyView {
    return { ...record, stripeConfigured: this.deps.stripeConfigured };
  }
}
