// Seating on the live floor plan in a real browser (Debian's chromium driven by playwright-core), embedded mode,
// on `pnpm seed`'s demo rooms (the seed script runs against the test stack): auto-assigned bookings marked
// "auto", a combination booked shown on its tables, options drawn as "held" markers counting down on the tables
// they hold (gone when released, and gone by the clock alone when they expire), and the combination outlines
// clear of the side panels. FLOOR_PLAN_SCREENSHOTS=<dir> also saves floor-plan-seating.png there
// (docs/images holds the committed one).
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const screenshotDir = process.env.FLOOR_PLAN_SCREENSHOTS;
const run = promisify(execFile);
/** The evening the test books (the page looks at it with its time picker). */
const DAY = '2030-06-14';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Option {
  id: string;
  tableIds: string[];
  expiresAt: string;
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (outer: Box, inner: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;
/** `mm:ss` in seconds. */
const seconds = (text: string) => {
  const [m, s] = text.split(':').map(Number);
  return m! * 60 + s!;
};

describe('floor plan: seating marks (embedded mode, chromium, seed data)', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let waiter: string;
  const ids: Record<string, string> = {};
  const combinations: Record<string, string> = {};
  const consoleErrors: string[] = [];

  const table = (name: string) => page.locator(`#room .table[data-id="${ids[name]}"]`);
  const marker = (name: string) => table(name).locator('.held-marker');
  const shot = async (name: string) => {
    if (!screenshotDir) return;
    mkdirSync(screenshotDir, { recursive: true });
    await page.locator('#messages').evaluate((box: { hidden: boolean }) => (box.hidden = true));
    await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  };
  const book = async (body: Record<string, unknown>) => {
    const res = await stack.api('POST', '/api/prenotazioni', {
      token: waiter,
      body: { state: 'confermata', ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { tableIds: string[]; assignment: string; combinationId: string | null };
  };
  const hold = async (body: Record<string, unknown>) => {
    const res = await stack.api('POST', '/api/prenotazioni/opzioni', { token: waiter, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Option;
  };

  beforeAll(async () => {
    stack = await sharedEmbedded();
    const tenant = newTenantId();
    await run(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts', '--tenant', tenant], {
      env: { ...process.env, JWT_SECRET: TEST_JWT_SECRET, COPERTO_URL: stack.baseUrl },
    });
    waiter = await mintToken({ tenantId: tenant });
    for (const t of (await stack.api('GET', '/api/tavoli', { token: waiter })).body as Array<{
      id: string;
      name: string;
    }>) {
      ids[t.name] = t.id;
    }
    for (const c of (await stack.api('GET', '/api/combinazioni', { token: waiter })).body as Array<{
      id: string;
      name: string;
    }>) {
      combinations[c.name] = c.id;
    }
    expect(Object.keys(combinations).sort()).toEqual(['3+4', '9+10', 'T1+T2']);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    // The page's own clock (it runs as the real one until a test moves it forward): the option poll and an
    // option's expiry are the page's timers, which a test fast-forwards instead of waiting for them.
    await page.clock.install();
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('#token').fill(waiter);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await table('1').waitFor(WAIT);
    await page.locator('#at').fill(`${DAY}T19:30`);
    await page.locator('#now:not([disabled])').waitFor(WAIT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('marks an auto-assigned booking "auto" on its table and in the table panel, a manual one not', async () => {
    // A party of 8: the fewest empty seats is table 7 (8 seats), in the room on screen.
    const auto = await book({
      covers: 8,
      customerName: 'Conti',
      bookingDate: `${DAY}T20:00`,
      autoAssign: true,
    });
    expect(auto).toMatchObject({ assignment: 'auto', tableIds: [ids['7']] });
    const manual = await book({
      covers: 4,
      customerName: 'Marino',
      bookingDate: `${DAY}T20:00`,
      tableIds: [ids['8']],
    });
    expect(manual.assignment).toBe('manual');
    // The list the page reads (GET /api/prenotazioni) carries the assignment.
    const listed = (
      await stack.api('GET', `/api/prenotazioni?dal=${DAY}&al=${DAY}&activeOnly=true`, { token: waiter })
    ).body as Array<{ customerName: string; assegnazione: string }>;
    expect(listed.map((b) => [b.customerName, b.assegnazione]).sort()).toEqual([
      ['Conti', 'auto'],
      ['Marino', 'manual'],
    ]);

    await table('7').locator('.label.next .auto-badge').waitFor(WAIT);
    expect(await table('7').locator('.label.next').textContent()).toBe('20:00 Conti ·8 auto');
    expect(await table('7').getAttribute('aria-label')).toContain(
      'next booking 20:00 Conti, 8, auto-assigned',
    );
    await table('8').locator('.label.next', { hasText: 'Marino' }).waitFor(WAIT);
    expect(await table('8').locator('.auto-badge').count()).toBe(0);

    await table('7').click();
    const item = page.locator('#panel .bookings li', { hasText: 'Conti' });
    await item.waitFor(WAIT);
    expect(await item.textContent()).toBe('20:00 · Conti · 8 coversauto');
    expect(await item.locator('.auto-badge').getAttribute('title')).toBe(
      'chosen by Coperto; may be moved to make room',
    );
    await table('8').click();
    await page.locator('#panel .bookings li', { hasText: 'Marino' }).waitFor(WAIT);
    expect(await page.locator('#panel .auto-badge').count()).toBe(0);
  });

  it('shows a booked combination on each of its tables, outlines clear of the side panels', async () => {
    const booked = await book({
      covers: 4,
      customerName: 'Greco',
      bookingDate: `${DAY}T20:30`,
      combinationId: combinations['9+10'],
    });
    expect(booked.tableIds.sort()).toEqual([ids['9'], ids['10']].sort());
    for (const name of ['9', '10']) {
      await table(name).locator('.label.next', { hasText: '20:30 Greco ·4' }).waitFor(WAIT);
      // Booked at the chosen evening: outlined like any booked table.
      await page.locator(`#room .table.booked-then[data-id="${ids[name]}"]`).waitFor(WAIT);
    }
    await table('9').click();
    await page.locator('#panel .bookings li', { hasText: '20:30 · Greco · 4 covers · 9+10' }).waitFor(WAIT);

    const stage = (await page.locator('#stage').boundingBox())!;
    const sides = [
      (await page.locator('#panel').boundingBox())!,
      (await page.locator('#waitlist').boundingBox())!,
    ];
    const drawn = page.locator('#room .combination-outline, #room .combination-label');
    expect(await drawn.count()).toBe(4); // 3+4 and 9+10 in SALA: outline and label each
    for (const part of await drawn.all()) {
      const box = (await part.boundingBox())!;
      expect(inside(stage, box)).toBe(true);
      for (const side of sides) expect(intersects(box, side)).toBe(false);
    }
  });

  it('draws an option as a held marker counting down on its table, gone once released', async () => {
    const option = await hold({
      dataOra: `${DAY}T21:00`,
      covers: 4,
      tableIds: [ids['5']],
      ttl: 600,
    });
    // Options have no event: the page reads them again every 15 seconds (or when bookings change); its clock
    // is moved to the next read.
    const held = marker('5');
    await page.clock.fastForward(15_000);
    await held.waitFor({ timeout: 30_000 });
    expect(await held.getAttribute('data-option-id')).toBe(option.id);
    expect(await table('5').getAttribute('class')).toContain('held');
    const left = held.locator('.held-left');
    const first = (await left.textContent())!;
    expect(first).toMatch(/^(10:00|09:[0-5]\d)$/);
    expect(await held.locator('.held-text').textContent()).toBe(`held 21:00 · ${first}`);
    await expect
      .poll(async () => seconds((await left.textContent())!), { timeout: 5000 })
      .toBeLessThan(seconds(first));
    // Only the held table carries a marker.
    expect(await page.locator('#room .held-marker').count()).toBe(1);
    await table('7').click();
    await page.locator('#panel .bookings li .auto-badge').waitFor(WAIT);
    await shot('floor-plan-seating');

    const released = await stack.api('DELETE', `/api/prenotazioni/opzioni/${option.id}`, { token: waiter });
    expect(released.body).toMatchObject({ id: option.id, released: true });
    await page.clock.fastForward(15_000); // the next read of the options
    await held.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await table('5').getAttribute('class')).not.toContain('held');
  });

  it('drops an expired option by the clock, even while the API still lists it', async () => {
    const option = await hold({ dataOra: `${DAY}T21:30`, covers: 2, tableIds: [ids['1']], ttl: 120 });
    const listed = (await stack.api('GET', '/api/prenotazioni/opzioni', { token: waiter })).body as Option[];
    expect(listed.map((o) => o.id)).toContain(option.id);
    // From now on the page gets that same list back: only its own clock can take the marker away.
    await page.route('**/api/prenotazioni/opzioni', (route) => route.fulfill({ json: listed }));
    await book({ covers: 2, customerName: 'Ricci', bookingDate: `${DAY}T22:00`, tableIds: [ids['2']] }); // re-reads
    await marker('1').waitFor({ timeout: 30_000 });
    // The page's clock passes the option's expiry without waiting for it.
    const pageNow = () => page.evaluate(() => Date.now());
    expect(await pageNow()).toBeLessThan(Date.parse(option.expiresAt));
    await page.clock.fastForward(Date.parse(option.expiresAt) - (await pageNow()) + 1000);
    await marker('1').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await pageNow()).toBeGreaterThanOrEqual(Date.parse(option.expiresAt));
    await page.unroute('**/api/prenotazioni/opzioni');
    expect(consoleErrors).toEqual([]);
  });
});
