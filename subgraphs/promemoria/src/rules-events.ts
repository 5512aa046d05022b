import { trustedTenantId, type TenantId } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import { DEFAULT_REMINDER_RULES, type ReminderRule } from '@coperto/domain';
import type { Scheduler } from '@coperto/scheduler';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { currentRules, planBooking } from './planner.js';
import { PromemoriaStore, type RulesRecord } from './promemoria-store.js';

/** The durable consumer of capacity's config changes (every promemoria instance shares it). */
export const RULES_CONSUMER = 'promemoria-regole';
export const RULES_EVENTS_SUBJECT = 'tenant.*.restaurant.capacity.config.updated';

/** Bookings planned again at most per rules change (the next ones in time; later ones at their next event). */
const REPLAN_LIMIT = 5000;

type RulesFacts = Omit<RulesRecord, 'id' | 'replanned'>;

/** The reminder rules a capacity.config.updated event carries, or null for a body without them. */
export function rulesOf(event: CloudEvent): RulesFacts | null {
  if (event.type !== 'capacity.config.updated' || typeof event.data !== 'object' || event.data === null)
    return null;
  const data = event.data as Record<string, unknown>;
  const { reminders, remindersUpdatedAt, updatedAt } = data;
  if (!Array.isArray(reminders) || typeof updatedAt !== 'string') return null;
  const regole: ReminderRule[] = [];
  for (const rule of reminders as unknown[]) {
    const hours = (rule as { hoursBefore?: unknown } | null)?.hoursBefore;
    if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1) return null;
    regole.push({ hoursBefore: hours });
  }
  const since = typeof remindersUpdatedAt === 'string' ? remindersUpdatedAt : null;
  return { regole, since, configUpdatedAt: updatedAt };
}

/** What promemoria plans by until capacity's first config event: capacity's default, planned with each booking. */
const UNTIL_TOLD = { regole: [...DEFAULT_REMINDER_RULES], since: null, replanned: true } as const;

function sameRules(a: { regole: readonly ReminderRule[]; since: string | null }, b: RulesFacts): boolean {
  return (
    a.since === b.since &&
    a.regole.length === b.regole.length &&
    a.regole.every((rule, i) => rule.hoursBefore === b.regole[i]!.hoursBefore)
  );
}

/** Attempts at storing one event's rules while other handlers store theirs. */
const MAX_ATTEMPTS = 10;

/**
 * Stores the rules of one config unless newer ones are stored; returns whether the bookings still to come must be
 * planned again under them (not when only other settings changed, nor when that was done already).
 */
async function storeRules(store: PromemoriaStore, rules: RulesFacts): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await store.readRules();
    if (stored && stored.configUpdatedAt > rules.configUpdatedAt) return false;
    const replanned = sameRules(stored ?? UNTIL_TOLD, rules) && (stored ?? UNTIL_TOLD).replanned;
    if (await store.replaceRules(stored, { ...rules, replanned })) return !replanned;
  }
  throw new Error(`reminder rules of ${rules.configUpdatedAt}: lost ${MAX_ATTEMPTS} races`);
}

/**
 * Keeps capacity's reminder rules from its config events and, when they changed, plans the bookings still to come
 * again (a removed rule's pending reminders dropped, a new rule's added when due after the change). The record
 * says whether that finished, so a delivery repeated after a crash finishes it; planning is idempotent.
 */
export function rulesEventConsumer(
  store: DocumentStore,
  scheduler: Scheduler,
  now: () => Date,
): EventConsumer {
  return {
    durable: RULES_CONSUMER,
    subject: RULES_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const rules = rulesOf(event);
      if (!tenant || !rules) return;
      const tenantId = trustedTenantId(tenant);
      const promemoria = new PromemoriaStore(store.forTenant(tenantId));
      if (!(await storeRules(promemoria, rules))) return;
      await replan(promemoria, scheduler, tenantId, now());
      await promemoria.markReplanned(rules.configUpdatedAt);
    },
  };
}

/** Plans again each booking starting after `at` (inactive ones drop their pending reminders). */
async function replan(store: PromemoriaStore, scheduler: Scheduler, tenantId: TenantId, at: Date) {
  const rules = await currentRules(store);
  for (const booking of await store.bookingsAfter(at.toISOString(), REPLAN_LIMIT))
    await planBooking(store, scheduler, tenantId, booking, rules);
}
