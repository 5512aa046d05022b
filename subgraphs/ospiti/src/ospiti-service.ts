import { InputChecks } from '@coperto/domain';
import { NotFoundError } from '@coperto/errors';
import { requireAdmin, type Viewer } from '@coperto/auth';
import { contactKey, DEFAULT_COUNTRY, isPhoneCountry } from './contacts.js';
import { duplicatePairs, type DuplicatePair } from './duplicates.js';
import { GUEST_LIMITS } from './guest-limits.js';
import { guestChanges, refuseErased } from './guest-patch.js';
import { changeGuest, currentGuest } from './guest-writes.js';
import type { ImpostazioniOspitiInput, OspitePatch } from './generated/resolvers-types.js';
import type { ImpostazioniRecord, OspiteRecord } from './ospite-record.js';
import type { OspitiStore } from './ospiti-store.js';
import type { RetentionScheduler } from './retention.js';
import { searchPlan } from './search-plan.js';

export interface OspitiServiceDeps {
  store: OspitiStore;
  viewer: Viewer;
  now: () => Date;
  /** Starts the tenant's daily retention runs (retention.ts). */
  retention: Pick<RetentionScheduler, 'scheduleToday'>;
}

/** The tenant's guest settings as the API shows them. */
export type GuestSettings = Omit<ImpostazioniRecord, 'id' | 'updatedAt'>;

/** Rules for reading and editing guest profiles, and the tenant's guest settings. */
export class OspitiService {
  constructor(private readonly deps: OspitiServiceDeps) {}

  /** The guest (a merged one reads as the guest it went into); null when unknown. */
  get(id: string): Promise<OspiteRecord | null> {
    return currentGuest(this.deps.store, id);
  }

  async require(id: string): Promise<OspiteRecord> {
    const guest = await this.get(id);
    if (!guest || guest.id !== id) throw new NotFoundError('Ospite', id);
    return guest;
  }

  async search(args: {
    q?: string | null;
    tag?: string | null;
    limite?: number | null;
  }): Promise<OspiteRecord[]> {
    new InputChecks()
      .intInRange('limite', args.limite, 1, GUEST_LIMITS.searchMaxLimit)
      .text('q', args.q, { max: GUEST_LIMITS.searchTextMaxLength })
      .text('tag', args.tag, { max: GUEST_LIMITS.labelMaxLength })
      .throwIfAny();
    const limit = args.limite ?? GUEST_LIMITS.searchDefaultLimit;
    const filter: Record<string, unknown> = { cancellato: false, unitoIn: null };
    if (args.tag?.trim()) filter['tag'] = args.tag.trim();
    const plan = args.q?.trim() ? searchPlan(args.q, await this.country()) : null;
    if (plan?.key) filter['chiavi'] = plan.key;
    const sort = { nomeOrdine: 1, id: 1 } as const;
    if (!plan?.check) return this.deps.store.findGuests(filter, { sort, limit });
    const found = await this.deps.store.findGuests(filter, { sort });
    return found.filter(plan.check).slice(0, limit);
  }

  async update(id: string, patch: OspitePatch): Promise<OspiteRecord> {
    const current = await this.require(id);
    refuseErased(current);
    const changes = guestChanges(patch, await this.country());
    const { store } = this.deps;
    // A new phone or email becomes this guest's for linking when no other guest owns it; the old one is let go.
    for (const [kind, field] of [
      ['tel', 'telefono'],
      ['email', 'email'],
    ] as const) {
      const value = changes[field];
      if (value === undefined || value === current[field]) continue;
      if (value) await store.claimContact(contactKey(kind, value), id);
      if (current[field]) await store.releaseContact(contactKey(kind, current[field]), id);
    }
    const saved = await changeGuest(store, id, this.deps.now, (guest) => {
      refuseErased(guest);
      return { ...guest, ...changes };
    });
    if (!saved) throw new NotFoundError('Ospite', id);
    return saved;
  }

  async duplicates(): Promise<DuplicatePair[]> {
    return duplicatePairs(await this.deps.store.findGuests({ cancellato: false, unitoIn: null }));
  }

  async settings(): Promise<GuestSettings> {
    const stored = await this.deps.store.settings();
    return { paese: stored?.paese ?? DEFAULT_COUNTRY, retentionMonths: stored?.retentionMonths ?? null };
  }

  async updateSettings(input: ImpostazioniOspitiInput): Promise<GuestSettings> {
    requireAdmin(this.deps.viewer, 'change the guest settings');
    const country = (input.country ?? input.paese)?.trim().toUpperCase();
    const checks = new InputChecks().intInRange('retentionMonths', input.retentionMonths, 1, 240);
    if (country !== undefined && !isPhoneCountry(country))
      checks.add('paese', 'must be an ISO 3166 country code with a phone numbering plan (IT, FR, GB…)');
    checks.throwIfAny();
    const current = await this.settings();
    const saved = await this.deps.store.saveSettings({
      paese: country ?? current.paese,
      retentionMonths: input.retentionMonths === undefined ? current.retentionMonths : input.retentionMonths,
      updatedAt: this.deps.now().toISOString(),
    });
    // The runs end by themselves once retention is off (the next run finds it so).
    if (saved.retentionMonths !== null) await this.deps.retention.scheduleToday(this.deps.viewer.tenantId);
    return { paese: saved.paese, retentionMonths: saved.retentionMonths };
  }

  private async country(): Promise<string> {
    return (await this.settings()).paese;
  }
}
