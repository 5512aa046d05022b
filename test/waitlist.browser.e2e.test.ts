// The host's waitlist on the floor plan in a real browser (Debian's chromium driven by playwright-core),
// embedded mode: two screens of one tenant; a party added on one appears on the other, is notified, seated
// on the suggested table or on a table clicked on the plan (the table turns occupied on both), or leaves.
// FLOOR_PLAN_SCREENSHOTS=<dir> also saves waitlist.png there (docs/images holds the committed one).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const screenshotDir = process.env.FLOOR_PLAN_SCREENSHOTS;

describe('waitlist on the floor plan (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let host: Page;
  let other: Page;
  let waiter: string;
  const tables: Record<string, string> = {};
  const consoleErrors: string[] = [];

  const party = (page: Page, name: string) => page.locator('#waitlist li.party', { hasText: name });
  const table = (page: Page, name: string) => page.locator(`#room .table[data-id="${tables[name]}"]`);

  async function open(token: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('#token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#room .table').first().waitFor(WAIT);
    await page.locator('#waitlist li.hint', { hasText: 'Nobody is waiting' }).waitFor(WAIT);
    return page;
  }

  async function addOn(page: Page, name: string, covers: number, phone?: string) {
    await page.locator('#waitlist input[name="customerName"]').fill(name);
    await page.locator('#waitlist input[name="covers"]').fill(String(covers));
    if (phone) await page.locator('#waitlist input[name="customerPhone"]').fill(phone);
    await page.getByRole('button', { name: 'Add party' }).click();
    await party(page, name).waitFor(WAIT);
  }

  beforeAll(async () => {
    stack = await sharedEmbedded();
    const tenant = newTenantId();
    waiter = await mintToken({ tenantId: tenant });
    const admin = await mintToken({ tenantId: tenant, admin: true });
    const room = (
      await stack.api('POST', '/api/sale', {
        token: admin,
        body: { codice: 'sala', width: 800, height: 400 },
      })
    ).body;
    const specs: Record<string, Record<string, unknown>> = {
      T1: { x: 140, y: 120, shape: 'round', width: 90, height: 90, seats: 2 },
      T2: { x: 340, y: 120, width: 110, height: 80, seats: 4 },
      T3: { x: 560, y: 120, width: 110, height: 80, seats: 4 },
      T4: { x: 250, y: 300, width: 160, height: 80, seats: 6 },
      T5: { x: 600, y: 300, shape: 'round', width: 90, height: 90, seats: 2 },
    };
    for (const [name, spec] of Object.entries(specs)) {
      const res = await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name, roomId: room.id, ...spec },
      });
      expect(res.status).toBe(201);
      tables[name] = res.body.id;
    }
    // A busy evening: most tables have guests.
    for (const name of ['T1', 'T3', 'T4', 'T5']) {
      await stack.api('PUT', `/api/tavoli/${tables[name]}/status`, {
        token: waiter,
        body: { status: name === 'T5' ? 'payment_pending' : 'occupied', pax: 2 },
      });
    }
    browser = await launchChromium();
    host = await open(waiter);
    other = await open(waiter);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('a party added on one screen appears on the other with its wait counting down', async () => {
    await addOn(host, 'Rossi', 4, '333 1234567');
    const there = party(other, 'Rossi');
    await there.waitFor(WAIT);
    await expect.poll(() => there.locator('.meta').textContent(), WAIT).toContain('#1');
    // T2 (4 seats) is free: Rossi's table is ready now, and the button says where.
    await there.locator('.wait', { hasText: 'table ready' }).waitFor(WAIT);
    await there.getByRole('button', { name: 'Seat at T2' }).waitFor(WAIT);
    // A party of 6 waits for T4, whose guests sat down a moment ago: a countdown in m:ss that goes down.
    await addOn(other, 'Bianchi', 6);
    const wait = party(host, 'Bianchi').locator('.wait');
    await wait.waitFor(WAIT);
    const first = await wait.textContent();
    expect(first).toMatch(/^\d+:\d{2}$/);
    await expect
      .poll(async () => seconds((await wait.textContent()) ?? ''), { timeout: 5000 })
      .toBeLessThan(seconds(first!));
    expect(await party(host, 'Bianchi').getByRole('button', { name: 'Seat (none free)' }).isDisabled()).toBe(
      true,
    );
  });

  it('notifies a party: both screens show it notified', async () => {
    await addOn(host, 'Verdi', 2);
    await party(host, 'Verdi').getByRole('button', { name: 'Notify' }).click();
    await other.locator('#waitlist li.party.state-notified', { hasText: 'Verdi' }).waitFor(WAIT);
    await party(other, 'Verdi').locator('.meta', { hasText: 'notified' }).waitFor(WAIT);
    if (screenshotDir) {
      mkdirSync(screenshotDir, { recursive: true });
      await host.locator('#messages').evaluate((box: { hidden: boolean }) => (box.hidden = true));
      await host.screenshot({ path: join(screenshotDir, 'waitlist.png') });
    }
  });

  it('seats a party on a table clicked on the plan: the table turns occupied on both screens', async () => {
    await party(other, 'Rossi').getByRole('button', { name: 'Choose table' }).click();
    await other
      .locator('#waitlist .picking', { hasText: 'Click a table on the plan to seat Rossi' })
      .waitFor(WAIT);
    await table(other, 'T2').click();
    for (const page of [other, host]) {
      await page.locator(`#room .table.status-occupied[data-id="${tables.T2}"]`).waitFor(WAIT);
      await party(page, 'Rossi').waitFor({ state: 'detached', ...WAIT });
    }
    const seated = (await stack.api('GET', '/api/prenotazioni', { token: waiter })).body as Array<{
      customerName: string;
      tableIds: string[];
      state: string;
    }>;
    expect(seated).toEqual([
      expect.objectContaining({ customerName: 'Rossi', tableIds: [tables.T2], state: 'confermata' }),
    ]);
  });

  it('seats a party on the suggested table, and marks another one left', async () => {
    await stack.api('PUT', `/api/tavoli/${tables.T1}/status`, { token: waiter, body: { status: 'free' } });
    const seat = party(host, 'Verdi').getByRole('button', { name: 'Seat at T1' });
    await seat.waitFor(WAIT);
    await seat.click();
    await other.locator(`#room .table.status-occupied[data-id="${tables.T1}"]`).waitFor(WAIT);
    await party(other, 'Verdi').waitFor({ state: 'detached', ...WAIT });
    await party(other, 'Bianchi').getByRole('button', { name: 'Left' }).click();
    await party(host, 'Bianchi').waitFor({ state: 'detached', ...WAIT });
    await host.locator('#waitlist li.hint', { hasText: 'Nobody is waiting' }).waitFor(WAIT);
    expect(consoleErrors).toEqual([]);
  });
});

/** `m:ss` in seconds. */
function seconds(text: string): number {
  const [m, s] = text.split(':').map(Number);
  return m! * 60 + s!;
}
