import type { JobRecord } from '@coperto/scheduler';
import type { ReminderPayload } from './planner.js';

/** A booking's reminder as the API shows it. */
export interface ReminderView {
  hoursBefore: number;
  dueAt: string;
  status: 'pending' | 'sent' | 'skipped' | 'cancelled' | 'failed';
  doneAt: string | null;
  reason: string | null;
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
