import type { ServiceTokenIssuer } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import type { DueJob, JobResult } from '@coperto/scheduler';
import type { DocumentStore } from '@coperto/store';
import type { Mailer } from './mailer.js';
import type { MailSettings } from './mail-settings.js';
import { reminderLinks, reminderText } from './message.js';
import { dueDecision } from './plan.js';
import type { ReminderPayload } from './planner.js';
import { PromemoriaStore } from './promemoria-store.js';

export interface ReminderJobDeps {
  store: DocumentStore;
  serviceTokens: ServiceTokenIssuer | undefined;
  mailer: Mailer | null;
  settings: MailSettings;
  timeZone: string;
  now: () => Date;
}

/**
 * The scheduler's handler of a due reminder: skipped unless the booking is active, not started, and still starts
 * when the reminder was planned for; otherwise the email (when the booking has an address and SMTP is set) with
 * the reminder's effect id as Message-ID, then the `reminders.due` event (id = the effect id), which the scheduler
 * stores with the done mark. The guest token of the links expires at the booking's end.
 *
 * The email goes out at most once: each send is claimed first (`claimSend`), and an attempt that finds it claimed
 * (an earlier holder died somewhere between its claim and the done mark) sends nothing more. The event still
 * comes, with `email: true` (an email was sent or began to be). Refused by SMTP, the claim is given back and the
 * job retried (docs/reminders.md, "At most once").
 */
export function reminderHandler(deps: ReminderJobDeps) {
  return async (job: DueJob): Promise<JobResult> => {
    const payload = job.payload as ReminderPayload;
    const store = new PromemoriaStore(deps.store.forTenant(job.tenantId));
    const booking = await store.booking(payload.bookingId);
    const now = deps.now();
    const decision = dueDecision(booking, { hoursBefore: payload.hoursBefore, dueAt: job.dueAt }, now);
    if (!decision.send) return { outcome: 'skipped', reason: decision.reason };
    if (!deps.serviceTokens) throw new Error('promemoria needs serviceTokens to make the guests’ links');
    const issued = await deps.serviceTokens.guestToken({
      tenantId: job.tenantId,
      bookingId: booking!.id,
      expiresAt: new Date(booking!.endsAt),
    });
    const links = reminderLinks(deps.settings.publicUrl, issued.token);
    const emailed = deps.mailer !== null && booking!.customerEmail !== null;
    if (emailed && (await store.claimSend(job.effectId, now))) {
      const text = reminderText(booking!, links, deps.timeZone);
      try {
        await deps.mailer!.send({
          to: booking!.customerEmail!,
          ...text,
          messageId: `<${job.effectId}@promemoria.coperto>`,
        });
      } catch (error) {
        await store.releaseSend(job.effectId);
        throw error;
      }
    }
    const { startSetAt: _startSetAt, ...facts } = booking!;
    const { message } = buildEvent({
      tenantId: job.tenantId,
      type: 'reminders.due',
      source: '/subgraphs/promemoria',
      subject: booking!.id,
      id: job.effectId,
      time: now,
      data: {
        prenotazione: facts,
        orePrima: payload.hoursBefore,
        hoursBefore: payload.hoursBefore,
        dueAt: job.dueAt,
        gestione: { url: links.manage, expiresAt: issued.expiresAt.toISOString() },
        email: emailed,
      },
    });
    return { outcome: 'done', events: [message] };
  };
}
