// Options on the floor plan: tables held while a guest completes a booking (POST /api/prenotazioni/opzioni).
// Each held table of the room gets a "held" marker with the option's time and the time left (mm:ss), counting
// down every second; an option that expires leaves the plan by the clock alone, without a request. The list
// (GET /api/prenotazioni/opzioni: the tenant's live options) is read again when bookings change, on every
// catch-up and every 15 seconds (creating or releasing an option has no event).
import { halfExtents } from './combinations.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Options have no event: the list is read again this often. */
export const OPTIONS_POLL_MS = 15_000;
/** Space between a table's extent (chairs included) and its marker, in room units. */
const GAP = 22;

function svgEl(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** mm:ss until `expiresAt` at `now` (ms), or null once it passed (pure). */
export function heldLeft(expiresAt, now) {
  const ms = Date.parse(expiresAt) - now;
  if (!(ms > 0)) return null;
  const seconds = Math.ceil(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Table id → the live option holding it that expires first, at `now` (pure). */
export function heldTables(options, now) {
  const held = new Map();
  for (const option of options) {
    if (!heldLeft(option.expiresAt, now)) continue;
    for (const id of option.tableIds) {
      const current = held.get(id);
      if (!current || Date.parse(option.expiresAt) < Date.parse(current.expiresAt)) held.set(id, option);
    }
  }
  return held;
}

/** 'HH:mm' of the option's meal (restaurant-local, as the service stores it). */
const optionTime = (option) => option.bookingDate.slice(11, 16);

/**
 * The options feature, made once per page. `deps`: { api() (the page's REST client), tables() (id → table of
 * the room on screen), geometryOf(table), notify(message), redraw() }. Returns { refresh, draw(svg),
 * tick(svg) (every second) }.
 */
export function createOptions(deps) {
  const state = { list: [] };

  async function refresh() {
    if (!deps.api()) return;
    try {
      state.list = await deps.api().request('GET', '/api/prenotazioni/opzioni');
      deps.redraw();
    } catch (error) {
      // A 401 has already signed the page out with the API's message.
      if (error.status !== 401) deps.notify(`Options: ${error.message}`);
    }
  }

  /** Marks the held tables of the room drawn in `svg` (after each redraw). */
  function draw(svg) {
    const now = Date.now();
    const labelSize = parseFloat(svg.style.getPropertyValue('--label-size')) || 12;
    for (const [tableId, option] of heldTables(state.list, now)) {
      const table = deps.tables().get(tableId);
      const group = svg.querySelector(`.table[data-id="${CSS.escape(tableId)}"]`);
      if (!table || !group) continue;
      const left = heldLeft(option.expiresAt, now);
      const text = `held ${optionTime(option)} · `;
      group.classList.add('held');
      group.setAttribute(
        'aria-label',
        `${group.getAttribute('aria-label')}, held for ${option.covers} at ${optionTime(option)}, ${left} left`,
      );
      const below = halfExtents(deps.geometryOf(table)).y + GAP;
      const width = (text.length + 5) * labelSize * 0.62;
      const height = labelSize * 1.6;
      const marker = svgEl('g', {
        class: 'held-marker',
        'data-option-id': option.id,
        transform: `translate(0 ${below})`,
      });
      marker.append(
        svgEl(
          'title',
          {},
          `Option: ${option.covers} covers at ${optionTime(option)}, held while a guest completes a booking`,
        ),
        svgEl('rect', { class: 'held-pill', x: -width / 2, y: -height / 2, width, height, rx: height / 2 }),
      );
      const label = svgEl('text', { class: 'held-text', x: 0, y: 0 }, text);
      label.append(svgEl('tspan', { class: 'held-left', 'data-held-expires': option.expiresAt }, left));
      marker.append(label);
      group.append(marker);
    }
  }

  /** Every second: the countdowns move; an option that expired leaves the plan (no request). */
  function tick(svg) {
    const now = Date.now();
    const live = state.list.filter((option) => heldLeft(option.expiresAt, now));
    if (live.length !== state.list.length) {
      state.list = live;
      deps.redraw();
      return;
    }
    for (const span of svg.querySelectorAll('[data-held-expires]')) {
      span.textContent = heldLeft(span.dataset.heldExpires, now) ?? '00:00';
    }
  }

  return { refresh, draw, tick };
}
