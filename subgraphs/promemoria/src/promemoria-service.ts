import { requireAdmin, type Viewer } from '@coperto/auth';
import type { JobRecord, Scheduler } from '@coperto/scheduler';
import type { ImpostazioniPromemoriaInput } from './generated/resolvers-types.js';
import { normalizeRules, type ReminderRule } from './plan.js';
import { currentRules, syncReminders, type ReminderPayload } from './planner.js';
import type { PromemoriaStore } from './promemoria-store.js';

/** The tenant's reminder settings as the API shows them. */
export interface ReminderSettings {
  rules: readonly ReminderRule[];
  customized: boolean;
  updatedAt: string | null;
}

/** A booking's reminder as the API shows it. */
export interface ReminderView {
  hoursBefore: number;
  dueAt: string;
  status: 'pending' | 'sent' | 'skipped' | 'cancelled' | 'failed';
  doneAt: string | null;
  reason: string | null;
}

/** Bookings re-planned at most per settings change (the next ones in time; later ones at their next event). */
const REPLAN_LIMIT = 5000;

/** Rules for the reminder settings and the reminders' status. */
export class PromemoriaService {
  constructor(
    private readonly deps: {
      store: PromemoriaStore;
      scheduler: Scheduler;
      viewer: Viewer;
      now: () => Date;
    },
  ) {}

  async settings(): Promise<ReminderSettings> {
    const saved = await this.deps.store.readSettings();
    const { rules } = await currentRules(this.deps.store);
    return { rules, customized: saved !== null, updatedAt: saved?.updatedAt ?? null };
  }

  /** Administrator: replaces the rules, then plans the bookings still to come again (400 for bad rules). */
  async updateSettings(input: ImpostazioniPromemoriaInput): Promise<ReminderSettings> {
    requireAdmin(this.deps.viewer, 'change the reminder settings');
    const sent = input.reminders ?? input.promemoria;
    if (sent) {
      const at = this.deps.now().toISOString();
      await this.deps.store.writeSettings(normalizeRules(sent), at);
      const rules = await currentRules(this.deps.store);
      const { tenantId } = this.deps.viewer;
      // Inactive bookings plan nothing: their pending reminders are cancelled, as are those of a removed rule.
      for (const booking of await this.deps.store.bookingsAfter(at, REPLAN_LIMIT))
        await syncReminders(this.deps.scheduler, tenantId, booking, rules);
    }
    return this.settings();
  }
}

/** The API's view of a reminder job. */
export function reminderView(job: JobRecord): ReminderView {
  const payload = job.payload as ReminderPayload;
  const status = job.state === 'done' ? (job.outcome === 'skipped' ? 'skipped' : 'sent') : job.state;
  return {
    hoursBefore: payload.hoursBefore,
    dueAt: job.dueAt,
    status,
    doneAt: job.doneAt,
    reason: job.reason ?? job.lastError,
  };
}
