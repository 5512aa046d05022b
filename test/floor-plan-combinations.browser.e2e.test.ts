// Table combinations on the live floor plan in a real browser (Debian's chromium driven by playwright-core),
// embedded mode: a combination is drawn as one group around its tables, and an administrator joins tables into
// a new one from the page ("Join tables", pick, name and covers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

describe('floor plan: table combinations (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let waiter: string;
  let admin: string;
  let roomId: string;
  const ids: Record<string, string> = {};
  let windowCombination: string;
  const consoleErrors: string[] = [];

  async function openAs(token: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('#token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#room .table').first().waitFor(WAIT);
    return page;
  }
  /** The element's box, read again while the page redraws the room (a live event, the combinations' load). */
  const box = async (page: Page, selector: string): Promise<Box> => {
    let found: Box | null = null;
    await expect
      .poll(async () => (found = await page.locator(selector).boundingBox()), {
        message: selector,
        timeout: 10_000,
      })
      .not.toBeNull();
    return found!;
  };
  const encloses = (outer: Box, inner: Box) =>
    outer.x <= inner.x &&
    outer.y <= inner.y &&
    outer.x + outer.width >= inner.x + inner.width &&
    outer.y + outer.height >= inner.y + inner.height;

  beforeAll(async () => {
    stack = await sharedEmbedded();
    const tenant = newTenantId();
    waiter = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    const room = await stack.api('POST', '/api/sale', {
      token: admin,
      body: { codice: 'sala', width: 800, height: 400 },
    });
    roomId = room.body.id;
    const specs: Record<string, Record<string, unknown>> = {
      A: { x: 150, y: 120 },
      B: { x: 250, y: 120 },
      C: { x: 500, y: 260, rotation: 45 },
      D: { x: 620, y: 260 },
    };
    for (const [name, spec] of Object.entries(specs)) {
      const res = await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name, seats: 4, roomId, ...spec },
      });
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
    }
    const combination = await stack.api('POST', '/api/combinazioni', {
      token: admin,
      body: { name: 'Window', tableIds: [ids.A, ids.B], minCovers: 5, maxCovers: 7 },
    });
    expect(combination.status).toBe(201);
    windowCombination = combination.body.id;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('draws a combination as one outline around its tables, with its name and covers', async () => {
    const page = await openAs(waiter);
    const group = page.locator(`#room .combination[data-id="${windowCombination}"]`);
    await group.waitFor(WAIT);
    expect(await group.locator('.combination-label').textContent()).toBe('Window · 5–7 covers');
    expect(await group.getAttribute('aria-label')).toBe('Combination Window: A + B, 5–7 covers');
    const outline = await box(
      page,
      `#room .combination[data-id="${windowCombination}"] .combination-outline`,
    );
    for (const name of ['A', 'B']) {
      expect(encloses(outline, await box(page, `#room .table[data-id="${ids[name]}"] .table-shape`))).toBe(
        true,
      );
    }
    expect(encloses(outline, await box(page, `#room .table[data-id="${ids.C}"] .table-shape`))).toBe(false);
    // A waiter cannot join tables.
    expect(await page.locator('#join-toggle').isHidden()).toBe(true);
    await page.close();
  });

  it('lets an administrator join tables into a combination from the page', async () => {
    const page = await openAs(admin);
    await page.getByRole('button', { name: 'Join tables' }).click();
    await expect.poll(() => page.locator('#join-form').isVisible()).toBe(true);
    await page.locator(`#room .table[data-id="${ids.C}"]`).click();
    expect(await page.locator('#join-create').isDisabled()).toBe(true); // one table is not a combination
    await page.locator(`#room .table[data-id="${ids.D}"]`).click();
    expect(await page.locator('#join-picked').textContent()).toBe('2 tables picked, 8 seats');
    expect(await page.locator('#join-max').inputValue()).toBe('8');
    expect(await page.locator(`#room .table.join-picked`).count()).toBe(2);
    await page.locator('#join-name').fill('Corner');
    await page.locator('#join-max').fill('7');
    await page.getByRole('button', { name: 'Create combination' }).click();
    await expect
      .poll(() => page.locator('#messages').textContent())
      .toBe('Combination Corner created (up to 7 covers)');
    expect(await page.locator('#join-form').isHidden()).toBe(true);

    const list = await stack.api('GET', `/api/combinazioni?salaId=${roomId}`, { token: admin });
    const corner = (
      list.body as Array<{ id: string; name: string; tableIds: string[]; maxCovers: number }>
    ).find((c) => c.name === 'Corner');
    expect(corner).toMatchObject({ tableIds: [ids.C, ids.D], maxCovers: 7 });
    const drawn = page.locator(`#room .combination[data-id="${corner!.id}"]`);
    await drawn.waitFor(WAIT);
    const outline = await box(page, `#room .combination[data-id="${corner!.id}"] .combination-outline`);
    for (const name of ['C', 'D']) {
      expect(encloses(outline, await box(page, `#room .table[data-id="${ids[name]}"] .table-shape`))).toBe(
        true,
      );
    }

    // Shift-click picks without the toggle; Cancel drops the picks.
    await page.locator(`#room .table[data-id="${ids.A}"]`).click({ modifiers: ['Shift'] });
    expect(await page.locator('#join-picked').textContent()).toBe('1 table picked, 4 seats');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('#room .table.join-picked').count()).toBe(0);
    await page.close();
    expect(consoleErrors).toEqual([]);
  });
});
