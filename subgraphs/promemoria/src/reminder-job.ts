import type { ServiceTokenIssuer } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import type { DueJob, JobResult } from '@coperto/scheduler';
import type { DocumentStore } from '@coperto/store';
import type { Mailer, ReminderEmail } from './mailer.js';
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
 * The email goes out at most once: its send is claimed (`claimSend`) when the SMTP server already holds the whole
 * message and only the end of its data is left to write, and an attempt that finds it claimed (an earlier holder
 * died after its claim, before the done mark) sends nothing more; the event still comes, with `email: true`.
 * Refused by SMTP after the claim, the claim is given back and the job retried (docs/reminders.md, "Once").
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
    if (emailed && !(await store.sendClaimed(job.effectId)))
      await sendOnce(
        deps.mailer!,
        store,
        job,
        {
          to: booking!.customerEmail!,
          ...reminderText(booking!, links, deps.timeZone),
          messageId: `<${job.effectId}@promemoria.coperto>`,
        },
        deps.now,
      );
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

/**
 * Sends the email unless another attempt claimed it first: the claim is made at the SMTP commit point (the
 * mailer's `commit`), and only if this attempt's scheduler claim is still current (`job.signal`). A process
 * killed before it leaves nothing delivered and no claim, so the next attempt sends; one killed after it left
 * the message with the server. A refusal after the claim gives it back (nothing was delivered) and throws (the
 * job is retried); a failure with no answer after it keeps it (the message may have been delivered).
 */
async function sendOnce(
  mailer: Mailer,
  store: PromemoriaStore,
  job: DueJob,
  email: ReminderEmail,
  now: () => Date,
) {
  let claimed = false;
  const commit = async () => {
    if (job.signal.aborted) return false;
    claimed = await store.claimSend(job.effectId, now());
    return claimed;
  };
  try {
    await mailer.send(email, commit);
  } catch (error) {
    if (claimed && refusedBySmtp(error)) await store.releaseSend(job.effectId);
    throw error;
  }
}

/** An SMTP reply refused the message (4xx/5xx): the server took no responsibility for it. */
function refusedBySmtp(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 400;
}
