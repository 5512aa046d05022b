// The live floor plan at GET / in a real browser (Debian's chromium driven by playwright-core), embedded mode:
// sign-in, tables drawn where their geometry says, live status, locks, the administrator's layout editing.
// FLOOR_PLAN_SCREENSHOTS=<dir> also saves the views' screenshots there (docs/images holds the committed ones).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const screenshotDir = process.env.FLOOR_PLAN_SCREENSHOTS;

interface BrowserDocument {
  querySelector(selector: string): { getBoundingClientRect(): Box } | null;
}
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Geometry {
  x: number;
  y: number;
}

describe('floor plan page (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let waiter: string;
  let admin: string;
  let room: { id: string; width: number; height: number };
  const tables: Record<string, { id: string } & Geometry> = {};
  const consoleErrors: string[] = [];
  /** The page's sockets pass through the test, which can cut them and refuse new ones (`socketsDown`). */
  const pageSockets: WebSocketRoute[] = [];
  let socketsDown = false;

  const table = (name: string) => page.locator(`#room .table[data-id="${tables[name]!.id}"]`);
  const shot = async (name: string) => {
    if (!screenshotDir) return;
    mkdirSync(screenshotDir, { recursive: true });
    // The last action's message box would cover the side panels.
    await page.locator('#messages').evaluate((box: { hidden: boolean }) => (box.hidden = true));
    await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  };

  /** Centre of a table's drawn shape and the room's scale, in page pixels (measured at once: redraws replace nodes). */
  async function drawn(name: string) {
    await table(name).waitFor(WAIT);
    const { roomBox, shape } = await page.evaluate((id) => {
      const box = (selector: string) => {
        // Runs in the page (the test's tsconfig has no DOM types).
        const doc = (globalThis as unknown as { document: BrowserDocument }).document;
        const r = doc.querySelector(selector)!.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      return { roomBox: box('#room rect.room'), shape: box(`#room .table[data-id="${id}"] .table-shape`) };
    }, tables[name]!.id);
    return {
      scale: roomBox.width / room.width,
      roomBox,
      shape,
      centre: { x: shape.x + shape.width / 2, y: shape.y + shape.height / 2 },
    };
  }

  async function signIn(token: string) {
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('#token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#room .table').first().waitFor(WAIT);
  }

  beforeAll(async () => {
    stack = await sharedEmbedded();
    const tenant = newTenantId();
    waiter = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    room = (
      await stack.api('POST', '/api/sale', {
        token: admin,
        body: { codice: 'sala', width: 800, height: 400 },
      })
    ).body;
    await stack.api('POST', '/api/sale', {
      token: admin,
      body: { codice: 'terrazza', width: 500, height: 300 },
    });
    const specs: Record<string, Record<string, unknown>> = {
      A: { x: 200, y: 100, shape: 'round', width: 90, height: 90, seats: 4 },
      B: { x: 560, y: 260, width: 140, height: 70, rotation: 30, seats: 6 },
      C: { seats: 2 },
    };
    for (const [name, spec] of Object.entries(specs)) {
      const res = await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name, roomId: room.id, ...spec },
      });
      expect(res.status).toBe(201);
      tables[name] = res.body;
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.routeWebSocket(/\/graphql$/, (ws) => {
      if (socketsDown) return void ws.close({ code: 1001, reason: 'test: socket down' });
      ws.connectToServer();
      pageSockets.push(ws);
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('signs in with a pasted token and draws the room’s tables where their geometry puts them', async () => {
    await signIn(waiter);
    expect(await page.locator('#rooms [role="tab"]').allTextContents()).toEqual(['SALA', 'TERRAZZA']);
    expect(await page.locator('#room .table').count()).toBe(3);
    for (const name of ['A', 'B']) {
      const { scale, roomBox, centre } = await drawn(name);
      expect(Math.abs(centre.x - (roomBox.x + tables[name]!.x * scale))).toBeLessThan(1.5);
      expect(Math.abs(centre.y - (roomBox.y + tables[name]!.y * scale))).toBeLessThan(1.5);
    }
    // B is 140 × 70 turned by 30°: its drawn bounding box is the rotated rectangle's.
    const { scale, shape: box } = await drawn('B');
    const rad = Math.PI / 6;
    expect(Math.abs(box.width / scale - (140 * Math.cos(rad) + 70 * Math.sin(rad)))).toBeLessThan(4);
    // C has no position: drawn in the strip under the room, flagged.
    expect(await table('C').getAttribute('class')).toContain('unplaced');
    const c = await drawn('C');
    expect(c.centre.y).toBeGreaterThan(c.roomBox.y + c.roomBox.height);
    expect(await table('C').textContent()).toContain('not placed');
    await shot('floor-plan');
  });

  it('shows a status another client sets through REST without a reload', async () => {
    const put = await stack.api('PUT', `/api/tavoli/${tables.A!.id}/status`, {
      token: waiter,
      body: { status: 'occupied' },
    });
    expect(put.status).toBe(200);
    await page.locator(`#room .table.status-occupied[data-id="${tables.A!.id}"]`).waitFor(WAIT);
  });

  it('shows a banner while the live socket is down and reads what it missed when it returns', async () => {
    expect(await page.locator('#banner').isHidden()).toBe(true);
    socketsDown = true;
    for (const ws of pageSockets.splice(0)) await ws.close({ code: 1001, reason: 'test: socket down' });
    await page.locator('#banner').waitFor(WAIT);
    const put = await stack.api('PUT', `/api/tavoli/${tables.A!.id}/status`, {
      token: waiter,
      body: { status: 'dirty' },
    });
    expect(put.status).toBe(200);
    socketsDown = false;
    await page.locator('#banner').waitFor({ state: 'hidden', ...WAIT });
    await page.locator(`#room .table.status-dirty[data-id="${tables.A!.id}"]`).waitFor(WAIT);
  });

  it('takes a lock from the panel that a second device then cannot take (409)', async () => {
    await table('A').click();
    await page.locator('#panel input[name="operator"]').fill('Giulia');
    await page.locator('#panel input[name="operator"]').press('Tab');
    await page.getByRole('button', { name: 'Take lock' }).click();
    await page.locator('#panel .lock-info', { hasText: 'Giulia (this device)' }).waitFor(WAIT);
    expect(await table('A').textContent()).toContain('Giulia');
    const other = await stack.api('POST', `/api/tavoli/${tables.A!.id}/lock`, {
      token: waiter,
      body: { deviceId: 'other-tablet', operatorName: 'Marco' },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('LOCK_CONFLICT');
    await shot('floor-plan-panel');
    await page.getByRole('button', { name: 'Release' }).click();
    await page.locator('#panel .lock-info', { hasText: 'Not locked' }).waitFor(WAIT);
  });

  it('shows the API’s refusal when another device holds the lock', async () => {
    const lock = await stack.api('POST', `/api/tavoli/${tables.B!.id}/lock`, {
      token: waiter,
      body: { deviceId: 'other-tablet', operatorName: 'Marco' },
    });
    expect(lock.status).toBe(200);
    await table('B').click();
    await page.locator('#panel .status-button[data-status="dirty"]').click();
    await page.locator('#messages', { hasText: 'Locked by device other-tablet' }).waitFor(WAIT);
    expect((await stack.api('GET', `/api/tavoli/${tables.B!.id}`, { token: waiter })).body.status).toBe(
      'free',
    );
    await page.locator('#panel .lock-info', { hasText: 'Marco' }).waitFor(WAIT);
    await stack.api('DELETE', `/api/tavoli/${tables.B!.id}/lock`, { token: admin });
  });

  it('shows the room at a chosen hour: a booking made meanwhile marks its table booked then', async () => {
    await page.locator('#at').fill('2030-06-14T20:30');
    await page.locator('#now:not([disabled])').waitFor(WAIT);
    expect(await page.locator('#room .table.booked-then').count()).toBe(0);
    const booking = await stack.api('POST', '/api/prenotazioni', {
      token: waiter,
      body: { covers: 3, customerName: 'Rossi', bookingDate: '2030-06-14T20:00', tableIds: [tables.B!.id] },
    });
    expect(booking.status).toBe(201);
    await page.locator(`#room .table.booked-then[data-id="${tables.B!.id}"]`).waitFor(WAIT);
    expect(await table('B').textContent()).toContain('20:00 Rossi ·3');
    expect(await table('A').getAttribute('class')).not.toContain('booked-then');
    await shot('floor-plan-at-hour');
    await page.getByRole('button', { name: 'Now' }).click();
    await page.locator('#room .table.booked-then').waitFor({ state: 'detached', ...WAIT });
  });

  it('lets an administrator drag a table; the saved layout persists after a reload', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(admin);
    await page.getByRole('button', { name: 'Edit layout' }).click();
    const before = await drawn('B');
    const [dx, dy] = [-150, -80];
    await page.mouse.move(before.centre.x, before.centre.y);
    await page.mouse.down();
    for (let step = 1; step <= 5; step++) {
      await page.mouse.move(before.centre.x + (dx * step) / 5, before.centre.y + (dy * step) / 5);
    }
    await page.mouse.up();
    await shot('floor-plan-edit');
    await page.getByRole('button', { name: /Save layout/ }).click();
    await page.locator('#messages', { hasText: 'Layout saved' }).waitFor(WAIT);
    const expected = { x: 560 + dx / before.scale, y: 260 + dy / before.scale };
    const saved = (await stack.api('GET', `/api/tavoli/${tables.B!.id}`, { token: admin })).body;
    expect(Math.abs(saved.x - expected.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(saved.y - expected.y)).toBeLessThanOrEqual(2);
    expect(saved.rotation).toBe(30);

    await page.reload();
    await page.locator('#room .table').first().waitFor(WAIT);
    const after = await drawn('B');
    expect(Math.abs(after.centre.x - (after.roomBox.x + saved.x * after.scale))).toBeLessThan(1.5);
    expect(Math.abs(after.centre.y - (after.roomBox.y + saved.y * after.scale))).toBeLessThan(1.5);
  });

  it('is keyboard reachable: a focused table is selected with Enter and moved with the arrow keys', async () => {
    await page.getByRole('button', { name: 'Edit layout' }).click();
    await table('A').focus();
    await page.keyboard.press('Enter');
    await page.locator('#panel h2', { hasText: 'Table A' }).waitFor(WAIT);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.getByRole('button', { name: 'Save layout (1)' }).click();
    await page.locator('#messages', { hasText: 'Layout saved (1 table)' }).waitFor(WAIT);
    const saved = (await stack.api('GET', `/api/tavoli/${tables.A!.id}`, { token: admin })).body;
    expect({ x: saved.x, y: saved.y }).toEqual({ x: 220, y: 101 });
  });

  it('resizes and rotates a table with its handles', async () => {
    const handle = async (kind: string) => {
      const box = await page.evaluate(
        ([id, k]) => {
          const doc = (globalThis as unknown as { document: BrowserDocument }).document;
          const r = doc.querySelector(`#room .table[data-id="${id}"] .handle.${k}`)!.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        },
        [tables.A!.id, kind] as const,
      );
      return box;
    };
    const drag = async (from: { x: number; y: number }, to: { x: number; y: number }) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      for (let step = 1; step <= 4; step++) {
        await page.mouse.move(from.x + ((to.x - from.x) * step) / 4, from.y + ((to.y - from.y) * step) / 4);
      }
      await page.mouse.up();
    };
    const { scale, centre, shape } = await drawn('A');
    // A redraw in flight from the previous test's save (its refresh, its live event) can land between measuring
    // the handle and pressing it, once in many CI runs: the press then misses and nothing is resized. Measure
    // again and repeat the drag until the drawn shape has grown (the assertions below are unchanged).
    for (let attempt = 0; attempt < 3; attempt++) {
      const resize = await handle('resize');
      await drag(resize, { x: resize.x + 15, y: resize.y + 30 });
      if ((await drawn('A')).shape.height > shape.height + 20) break;
    }
    await drag(await handle('rotate'), { x: centre.x + 100, y: centre.y });
    await page.getByRole('button', { name: 'Save layout (1)' }).click();
    // The previous test's "Layout saved (1 table)" may still be on screen: wait for this save's PATCH itself.
    await page.getByRole('button', { name: 'Save layout (1)' }).waitFor({ state: 'detached', ...WAIT });
    await page.locator('#messages', { hasText: 'Layout saved (1 table)' }).waitFor(WAIT);
    const saved = (await stack.api('GET', `/api/tavoli/${tables.A!.id}`, { token: admin })).body;
    expect(Math.abs(saved.width - (90 + (2 * 15) / scale))).toBeLessThanOrEqual(2);
    expect(Math.abs(saved.height - (90 + (2 * 30) / scale))).toBeLessThanOrEqual(2);
    expect(saved.rotation).toBe(90);
    expect({ x: saved.x, y: saved.y }).toEqual({ x: 220, y: 101 });
  });

  it('shows the API’s refusal of a table saved outside its room (the room shrank meanwhile)', async () => {
    const shrink = await stack.api('PATCH', `/api/sale/${room.id}`, { token: admin, body: { width: 300 } });
    expect(shrink.status).toBe(200);
    await table('A').focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Save layout (1)' }).click();
    await page.locator('#messages', { hasText: 'Table A' }).waitFor(WAIT);
    expect(await page.locator('#messages').textContent()).toContain('must be from 0 to 300');
    expect((await stack.api('GET', `/api/tavoli/${tables.A!.id}`, { token: admin })).body.x).toBe(220);
    expect(await page.getByRole('button', { name: 'Save layout (1)' }).isVisible()).toBe(true);
  });

  it('works by touch on a 1024 × 768 tablet: a tap selects a table and a tap on a status sets it', async () => {
    const tablet = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      isMobile: true,
    });
    try {
      const touch = await tablet.newPage();
      touch.on('pageerror', (error) => consoleErrors.push(`tablet pageerror: ${error.message}`));
      await touch.goto(`${stack.baseUrl}/`);
      await touch.locator('#token').fill(waiter);
      await touch.getByRole('button', { name: 'Sign in' }).tap();
      const tableC = touch.locator(`#room .table[data-id="${tables.C!.id}"]`);
      await tableC.waitFor(WAIT);
      await tableC.tap();
      await touch.locator('#panel h2', { hasText: 'Table C' }).waitFor(WAIT);
      await touch.locator('#panel .status-button[data-status="reserved"]').tap();
      await touch.locator(`#room .table.status-reserved[data-id="${tables.C!.id}"]`).waitFor(WAIT);
      expect((await stack.api('GET', `/api/tavoli/${tables.C!.id}`, { token: waiter })).body.status).toBe(
        'reserved',
      );
    } finally {
      await tablet.close();
    }
  });

  it('logged no console errors (but Chrome’s own lines for the two refusals the test provoked)', () => {
    const refusals = [
      'Failed to load resource: the server responded with a status of 409 (Conflict)',
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ];
    expect(consoleErrors.filter((e) => !refusals.includes(e))).toEqual([]);
    expect(consoleErrors.filter((e) => refusals.includes(e)).sort()).toEqual([...refusals].sort());
  });
});
