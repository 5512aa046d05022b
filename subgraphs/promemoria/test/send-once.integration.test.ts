// A reminder's email and kill -9, against the real SMTP server (mailpit) and the MongoDB-protocol store: the email
// is claimed only when the server holds the whole message but its end, so a process killed anywhere before that
// leaves nothing delivered and nothing claimed, and the next attempt sends the one email (bench scenario 17 found
// reminders lost when the claim came before the SMTP conversation: a kill during it left a claim and no email).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceTokenIssuer, trustedTenantId, type TenantId } from '@coperto/auth';
import type { DueJob } from '@coperto/scheduler';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import {
  newTenantId,
  serverUrls,
  startMailpit,
  TEST_SERVICE_TOKEN_SECRET,
  uniqueName,
  type Mailpit,
} from '@coperto/testkit';
import { createSmtpMailer } from '../src/mailer.js';
import { mailSettingsOf } from '../src/mail-settings.js';
import { dueAtOf } from '../src/plan.js';
import { PromemoriaStore, SENDS_COLLECTION } from '../src/promemoria-store.js';
import { reminderHandler } from '../src/reminder-job.js';
import { startSmtpPause } from './support/smtp-pause.js';

const HOUR = 3_600_000;
const time = Date.parse('2027-03-01T08:00:00.000Z');

describe('a reminder email and kill -9', () => {
  let store: DocumentStore;
  let mailpit: Mailpit;

  beforeAll(async () => {
    [store, mailpit] = await Promise.all([
      connectMongoStore({ url: serverUrls().mongoUrl, database: uniqueName('promemoria_once') }),
      startMailpit(),
    ]);
  });
  afterAll(async () => {
    await store?.close();
    await mailpit?.stop();
  });

  /** A tenant with one booking 5 hours ahead, and the due job of its 4-hour reminder (attempt `n`). */
  const booking = async () => {
    const tenant = trustedTenantId(newTenantId());
    const email = `once.${tenant}@example.com`.toLowerCase();
    await new PromemoriaStore(store.forTenant(tenant)).saveBooking({
      id: 'b1',
      codice: 'ONCE01',
      state: 'confermata',
      startsAt: new Date(time + 5 * HOUR).toISOString(),
      endsAt: new Date(time + 7 * HOUR).toISOString(),
      covers: 2,
      customerName: 'Rita',
      customerEmail: email,
      lingua: 'en',
      updatedAt: new Date(time).toISOString(),
    });
    const job = (attempt: number): DueJob => ({
      tenantId: tenant,
      key: 'b1/4',
      dueAt: dueAtOf(new Date(time + 5 * HOUR).toISOString(), 4),
      payload: { bookingId: 'b1', hoursBefore: 4 },
      version: 1,
      effectId: `effect-${tenant}`,
      attempt,
      signal: new AbortController().signal,
    });
    const received = async () => (await mailpit.messages()).filter((m) => m.To[0]?.Address === email);
    return { tenant, job, received };
  };

  const handlerFor = (smtpUrl: string, on: DocumentStore = store) => {
    const settings = mailSettingsOf({
      SMTP_URL: smtpUrl,
      SMTP_FROM: 'Trattoria <sala@example.com>',
      PUBLIC_URL: 'https://coperto.example',
    });
    const mailer = createSmtpMailer(settings)!;
    const handle = reminderHandler({
      store: on,
      serviceTokens: createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET, now: () => time }),
      mailer,
      settings,
      timeZone: 'Europe/Rome',
      now: () => new Date(time),
    });
    return { handle, mailer };
  };

  const claimed = async (tenant: TenantId, effectId: string) =>
    (await store.forTenant(tenant).collection(SENDS_COLLECTION).findById(effectId)) !== null;

  it('a process killed during its SMTP conversation claimed nothing: the next attempt sends the one email', async () => {
    const { tenant, job, received } = await booking();
    for (const command of ['RCPT TO', 'DATA']) {
      const pause = await startSmtpPause(mailpit.smtpUrl, command);
      const first = handlerFor(pause.url);
      const dying = first.handle(job(1)).catch(() => 'killed');
      await pause.reached;
      expect(await claimed(tenant, job(1).effectId)).toBe(false);
      // kill -9: its connection drops; nothing it would do afterwards reaches the store (it claimed nothing)
      first.mailer.close();
      await pause.close();
      expect(await dying).toBe('killed');
      expect(await received()).toHaveLength(0);
    }
    const next = handlerFor(mailpit.smtpUrl);
    expect(await next.handle(job(2))).toMatchObject({ outcome: 'done' });
    next.mailer.close();
    expect(await received()).toHaveLength(1);
    expect(await claimed(tenant, job(2).effectId)).toBe(true);
  });

  it('a process killed at the commit point, before its claim landed, delivered nothing: the next attempt sends one', async () => {
    const { tenant, job, received } = await booking();
    const dyingStore = claimPausing(store);
    const first = handlerFor(mailpit.smtpUrl, dyingStore.store);
    const dying = first.handle(job(1)).catch(() => 'killed');
    // the server holds the whole message but its end; the claim is on its way to the store: kill -9 now
    await dyingStore.reached;
    first.mailer.close();
    dyingStore.kill();
    expect(await dying).toBe('killed');
    expect(await received()).toHaveLength(0);
    expect(await claimed(tenant, job(1).effectId)).toBe(false);

    const next = handlerFor(mailpit.smtpUrl);
    expect(await next.handle(job(2))).toMatchObject({ outcome: 'done' });
    next.mailer.close();
    expect(await received()).toHaveLength(1);
  });
});

/**
 * The store as a process about to be killed sees it: its insert into the sends collection (the email's claim)
 * stops there (`reached`) and fails when the process is killed (`kill`), so it never lands.
 */
function claimPausing(inner: DocumentStore) {
  let reachedIt = () => {};
  const reached = new Promise<void>((resolve) => (reachedIt = resolve));
  let kill = () => {};
  const killed = new Promise<never>((_resolve, reject) => (kill = () => reject(new Error('killed'))));
  killed.catch(() => {});
  const store: DocumentStore = {
    ...inner,
    forTenant(tenantId) {
      const scoped = inner.forTenant(tenantId);
      return {
        tenantId,
        collection<T extends { id: string }>(name: string) {
          const collection = scoped.collection<T>(name);
          if (name !== SENDS_COLLECTION) return collection;
          return Object.assign(Object.create(collection) as typeof collection, {
            insertOne: () => {
              reachedIt();
              return killed;
            },
          });
        },
      };
    },
  };
  return { store, reached, kill };
}
