// What the host sees on the live floor plan in a real browser (Debian's chromium driven by playwright-core),
// embedded mode: beside a booking in the table panel and beside a waiting party, the guest's tags, allergies
// (marked), visits and no-shows read through federation (ospiti), the booking's guarantee with its due time
// (garanzie), and the guest's history one click away; an administrator's report view drawing GET /api/report.
// FLOOR_PLAN_SCREENSHOTS=<dir> also saves floor-plan-guest.png and floor-plan-report.png there (docs/images holds
// the committed ones).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const screenshotDir = process.env.FLOOR_PLAN_SCREENSHOTS;
/** The evening the test books (the page looks at it with its time picker), and the guest's earlier ones. */
const DAY = '2030-06-14';
const ADA = { customerName: 'Ada Neri', customerPhone: '+39 333 1112222' };
/** The browser's zone: the guarantee's due time is shown in it. */
const TIME_ZONE = 'Europe/Rome';
/** The browser's getComputedStyle (the tests are compiled without the DOM's types). */
interface Styles {
  getComputedStyle(node: unknown): { color: string };
}
/** What the page's Chart.js holds for a canvas (the tests are compiled without the DOM's types). */
interface ChartGlobal {
  Chart: { getChart(id: string): { data: { labels: string[]; datasets: Array<{ data: unknown[] }> } } };
}

describe('floor plan: the host sees the guest and the guarantee (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let waiter: string;
  let guestId: string;
  let tonight: string;
  const tables: Record<string, string> = {};
  const consoleErrors: string[] = [];

  const api = async (method: string, path: string, body?: unknown, token = waiter) => {
    const res = await stack.api(method, path, { token, ...(body !== undefined ? { body } : {}) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const book = async (body: Record<string, unknown>) =>
    (await api('POST', '/api/prenotazioni', body)).id as string;
  const bookingLine = (name: string) => page.locator('#panel .bookings li', { hasText: name });

  beforeAll(async () => {
    stack = await sharedEmbedded();
    const tenant = newTenantId();
    waiter = await mintToken({ tenantId: tenant });
    const admin = await mintToken({ tenantId: tenant, admin: true });
    const room = await api('POST', '/api/sale', { codice: 'sala', width: 800, height: 400 }, admin);
    for (const [name, spec] of Object.entries({
      T1: { x: 200, y: 200, width: 170, height: 100, seats: 4 },
      T2: { x: 540, y: 200, width: 220, height: 120, seats: 6 },
    })) {
      tables[name] = (await api('POST', '/api/tavoli', { name, roomId: room.id, ...spec }, admin)).id;
    }
    // Parties of 6 and more leave a card: tonight's booking carries a guarantee waiting for the guest.
    await api(
      'PUT',
      '/api/garanzie/politica',
      { rules: [{ type: 'card', minCovers: 6, amountPerCover: 2000, currency: 'eur' }] },
      admin,
    );
    // Ada came once and once did not show up; tonight she comes with five friends. Piero leaves no contact.
    const visit = await book({ ...ADA, covers: 2, bookingDate: '2030-06-01T20:00', tableIds: [tables.T1] });
    const missed = await book({ ...ADA, covers: 2, bookingDate: '2030-06-07T20:00', tableIds: [tables.T1] });
    tonight = await book({ ...ADA, covers: 6, bookingDate: `${DAY}T20:00`, tableIds: [tables.T2] });
    await book({
      customerName: 'Piero Conti',
      covers: 2,
      bookingDate: `${DAY}T20:30`,
      tableIds: [tables.T1],
    });
    for (const [id, states] of [
      [visit, ['confermata', 'completata']],
      [missed, ['confermata', 'no_show']],
    ] as const) {
      for (const nuovoStato of states) await api('POST', `/api/prenotazioni/${id}/stato`, { nuovoStato });
    }
    guestId = await vi.waitFor(
      async () => {
        const [guest] = (await api('GET', '/api/ospiti?q=1112222')) as Array<Record<string, any>>;
        expect(guest).toMatchObject({ visits: 1, noShows: 1 });
        return guest!.id as string;
      },
      { timeout: 15_000, interval: 100 },
    );
    await api('PATCH', `/api/ospiti/${guestId}`, { tags: ['VIP'], allergies: ['crostacei', 'arachidi'] });
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      timezoneId: TIME_ZONE,
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('#token').fill(waiter);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator(`#room .table[data-id="${tables.T2}"]`).waitFor(WAIT);
    await page.locator('#at').fill(`${DAY}T19:00`);
    await page.locator('#now:not([disabled])').waitFor(WAIT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows the booking's guest (allergies marked) and its guarantee with the due time in the table panel", async () => {
    const { dueAt } = (
      await stack.graphql(waiter, 'query($id: ID!) { prenotazione(id: $id) { guarantee { dueAt } } }', {
        id: tonight,
      })
    ).body.data.prenotazione.guarantee as { dueAt: string };
    const due = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: TIME_ZONE,
    }).format(new Date(dueAt));
    await page.locator(`#room .table[data-id="${tables.T2}"]`).click();
    const line = bookingLine('Ada Neri');
    await line.locator('.allergies').waitFor(WAIT);
    expect(await line.locator('.allergies').textContent()).toBe('⚠ Allergies: crostacei, arachidi');
    expect(await line.locator('.guest-tag').allTextContents()).toEqual(['VIP']);
    expect(await line.locator('.guest-counts').textContent()).toBe('1 visit · 1 no-show');
    expect(await line.locator('.guarantee.tone-due').textContent()).toBe(
      `Card €120.00 requested · due ${due}`,
    );
    // The allergy is marked: its own colour, unlike the rest of the line.
    const colour = (locator: Locator) =>
      locator.evaluate((node) => (globalThis as unknown as Styles).getComputedStyle(node).color);
    const colours = { allergy: await colour(line.locator('.allergies')), text: await colour(line) };
    expect(colours.allergy).not.toBe(colours.text);
    if (screenshotDir) {
      mkdirSync(screenshotDir, { recursive: true });
      await page.locator('#messages').evaluate((box: { hidden: boolean }) => (box.hidden = true));
      await page.screenshot({ path: join(screenshotDir, 'floor-plan-guest.png') });
    }
    // On the plan itself, the table of a party with allergies is marked, and says which to a screen reader.
    const t2 = page.locator(`#room .table[data-id="${tables.T2}"]`);
    expect(await t2.locator('.allergy-mark').count()).toBe(1);
    expect(await t2.getAttribute('aria-label')).toContain('allergies: crostacei, arachidi');
    expect(await page.locator(`#room .table[data-id="${tables.T1}"] .allergy-mark`).count()).toBe(0);
    // Piero left no phone nor email: no guest, and a party of 2 has no guarantee.
    await page.locator(`#room .table[data-id="${tables.T1}"]`).click();
    await bookingLine('Piero Conti').waitFor(WAIT);
    expect(await bookingLine('Piero Conti').locator('.guest-facts, .guarantee').count()).toBe(0);
  });

  it("opens the guest's history from the booking: every booking, latest first, with how it ended", async () => {
    await page.locator(`#room .table[data-id="${tables.T2}"]`).click();
    await bookingLine('Ada Neri').getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ada Neri' });
    await dialog.waitFor(WAIT);
    expect(await dialog.locator('.contact').textContent()).toBe('+393331112222');
    expect(await dialog.locator('.guest-bookings li').allTextContents()).toEqual([
      `${DAY} 20:00 · 6 covers · pending`,
      '2030-06-07 20:00 · 2 covers · no-show',
      '2030-06-01 20:00 · 2 covers · completed',
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached', ...WAIT });
  });

  it("shows a waiting party's guest on the waitlist, a party without contact without one", async () => {
    const party = (name: string) => page.locator('#waitlist li.party', { hasText: name });
    await page.locator('#waitlist input[name="customerName"]').fill('Ada');
    await page.locator('#waitlist input[name="covers"]').fill('2');
    await page.locator('#waitlist input[name="customerPhone"]').fill('333 111 2222');
    await page.getByRole('button', { name: 'Add party' }).click();
    // Linked from the waitlist event a moment after the write: the page reads the guest again then.
    await party('Ada').locator('.allergies', { hasText: 'crostacei, arachidi' }).waitFor(WAIT);
    expect(await party('Ada').locator('.guest-counts').textContent()).toBe('1 visit · 1 no-show');
    await api('POST', '/api/attesa', { customerName: 'Walk-in Bruno', covers: 3 });
    await party('Walk-in Bruno').waitFor(WAIT);
    expect(await party('Walk-in Bruno').locator('.guest-facts').count()).toBe(0);
    await party('Ada').getByRole('button', { name: 'History' }).click();
    await page.getByRole('dialog', { name: 'Ada Neri' }).waitFor(WAIT);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    expect(consoleErrors).toEqual([]);
  });

  it('draws the report for an administrator: the totals and the four charts, from GET /api/report', async () => {
    const admin = await mintToken({ tenantId: newTenantId(), admin: true });
    const as = (method: string, path: string, body?: unknown) => api(method, path, body, admin);
    // Services: the whole day in UTC, so what happens now falls in today's.
    await as('PUT', '/api/capacity/config', {
      timeZone: 'UTC',
      openingHours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
        weekday,
        intervals: [{ open: '00:00', close: '24:00' }],
      })),
      turnTimes: [
        { maxCovers: 2, minutes: 60 },
        { maxCovers: 6, minutes: 120 },
      ],
    });
    const room = await as('POST', '/api/sale', { codice: 'report', width: 800, height: 400 });
    const table = (await as('POST', '/api/tavoli', { name: 'R1', seats: 4, roomId: room.id })).id as string;
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    // A party of 2 seated and paying 80, a party of 3 that did not come.
    await as('POST', '/api/prenotazioni', {
      customerName: 'Seduti',
      covers: 2,
      bookingDate: minutesAgo(2),
      tableIds: [table],
    });
    const missed = (
      await as('POST', '/api/prenotazioni', {
        customerName: 'Assenti',
        covers: 3,
        bookingDate: minutesAgo(3),
      })
    ).id as string;
    for (const nuovoStato of ['confermata', 'no_show']) {
      await as('POST', `/api/prenotazioni/${missed}/stato`, { nuovoStato });
    }
    for (const body of [
      { status: 'occupied', pax: 2 },
      { status: 'payment_pending', totalAmount: 80 },
      { status: 'free' },
    ]) {
      await as('PUT', `/api/tavoli/${table}/status`, body);
    }
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const report = await vi.waitFor(
      async () => {
        const body = await as('GET', `/api/report?dal=${yesterday}&al=${today}`);
        expect(body.totals).toMatchObject({ coversSeated: 2, noShows: 1, revenue: 80 });
        return body as Record<string, any>;
      },
      { timeout: 15_000, interval: 200 },
    );

    const reportPage = await context.newPage();
    await reportPage.setViewportSize({ width: 1280, height: 900 });
    reportPage.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    reportPage.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await reportPage.goto(`${stack.baseUrl}/`);
    await reportPage.locator('#token').fill(admin);
    await reportPage.getByRole('button', { name: 'Sign in' }).click();
    await reportPage.getByRole('button', { name: 'Report' }).click();
    await reportPage.locator('#report input[name="from"]').fill(yesterday);
    await reportPage.locator('#report input[name="to"]').fill(today);
    await reportPage.getByRole('button', { name: 'Show' }).click();
    await reportPage
      .locator('.report-status', { hasText: `${yesterday} to ${today}: 2 services` })
      .waitFor(WAIT);
    expect(await reportPage.locator('#plan').isVisible()).toBe(false);
    const labels = await reportPage.locator('.report-totals dt').allTextContents();
    const values = await reportPage.locator('.report-totals dd').allTextContents();
    expect(Object.fromEntries(labels.map((label, k) => [label, values[k]]))).toMatchObject({
      'Covers seated': '2',
      'No-shows': '1',
      Revenue: '80.00',
    });
    // The charts hold what the endpoint said: covers by hour, today's weekday's no-show rate, the turn-time rows
    // with their configured minutes, each service's RevPASH.
    const charts = await reportPage.evaluate(() =>
      ['covers', 'no-shows', 'turns', 'revpash'].map((name) => {
        const { labels, datasets } = (globalThis as unknown as ChartGlobal).Chart.getChart(
          `chart-${name}`,
        ).data;
        return { labels, data: datasets.map((d) => d.data) };
      }),
    );
    const [covers, noShows, turns, revPash] = charts;
    expect(covers).toEqual({
      labels: report.byHour.map((h: { hour: string }) => h.hour),
      data: [report.byHour.map((h: { covers: number }) => h.covers)],
    });
    const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7;
    expect(noShows!.data[0]![weekday]).toBe(100 * report.services[1].noShowRate);
    expect(turns!.labels).toEqual(['1–2 covers', '3–6 covers']);
    expect(turns!.data[1]).toEqual([60, 120]);
    expect(revPash!.data[0]).toEqual(report.services.map((s: { revPash: number | null }) => s.revPash));
    if (screenshotDir) await reportPage.screenshot({ path: join(screenshotDir, 'floor-plan-report.png') });
    await reportPage.getByRole('button', { name: 'Floor plan' }).click();
    await reportPage.locator('#plan').waitFor({ state: 'visible', ...WAIT });
    expect(consoleErrors).toEqual([]);
  });
});
