// Table combinations on the floor plan: each combination of the room drawn as one group (an outline around its
// tables with its name and covers), and, for an administrator, joining tables into a new combination: pick
// tables with "Join tables" (or Shift-click), then give the name and the covers. Talks to /api/combinazioni.
import { isPlaced } from './model.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Space between the member tables' extent and the outline (room units). */
const PAD = 16;

function svgEl(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Half extents of a table's rotated rectangle (pure). */
export function halfExtents(geometry) {
  const rad = (geometry.rotation * Math.PI) / 180;
  const w = geometry.width / 2;
  const h = geometry.height / 2;
  return {
    x: Math.abs(w * Math.cos(rad)) + Math.abs(h * Math.sin(rad)),
    y: Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad)),
  };
}

/** The box around placed member tables (room units), or null when one of them is not placed (pure). */
export function outlineOf(geometries) {
  if (geometries.length === 0 || !geometries.every(isPlaced)) return null;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const g of geometries) {
    const half = halfExtents(g);
    x1 = Math.min(x1, g.x - half.x);
    y1 = Math.min(y1, g.y - half.y);
    x2 = Math.max(x2, g.x + half.x);
    y2 = Math.max(y2, g.y + half.y);
  }
  return { x: x1 - PAD, y: y1 - PAD, width: x2 - x1 + 2 * PAD, height: y2 - y1 + 2 * PAD };
}

export const coversText = (c) =>
  c.minCovers > 1 ? `${c.minCovers}–${c.maxCovers} covers` : `up to ${c.maxCovers} covers`;

/**
 * The combinations feature, made once per page. `deps`: { api() (createApi's client of the signed-in token),
 * roomId(), tables() (id → table),
 * geometryOf(table) (with unsaved edits), isAdmin(), notify(message, kind), redraw() }.
 */
export function createCombinations(deps) {
  const state = { list: [], joining: false, picked: new Set() };

  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.id = 'join-toggle';
  toggle.textContent = 'Join tables';
  toggle.setAttribute('aria-pressed', 'false');
  toggle.hidden = true;
  document.querySelector('.toolbar .spacer')?.after(toggle);

  const form = document.createElement('form');
  form.id = 'join-form';
  form.hidden = true;
  form.innerHTML = `
    <span id="join-picked"></span>
    <label class="field">Name <input id="join-name" required maxlength="100" autocomplete="off" /></label>
    <label class="field">Max covers <input id="join-max" type="number" min="1" required /></label>
    <button id="join-create" type="submit">Create combination</button>
    <button id="join-cancel" type="button">Cancel</button>
    <span id="join-error" role="alert"></span>`;
  document.querySelector('.toolbar')?.after(form);
  const $ = (selector) => form.querySelector(selector);

  function setJoining(on) {
    state.joining = on;
    if (!on) state.picked.clear();
    toggle.setAttribute('aria-pressed', String(on));
    $('#join-error').textContent = '';
    renderForm();
    deps.redraw();
  }

  function pickedSeats() {
    return [...state.picked].reduce((sum, id) => sum + (deps.tables().get(id)?.seats ?? 0), 0);
  }

  function renderForm() {
    form.hidden = !state.joining;
    const count = state.picked.size;
    $('#join-picked').textContent =
      count === 0
        ? 'Pick the tables to join (Shift-click works too)'
        : `${count} table${count === 1 ? '' : 's'} picked, ${pickedSeats()} seats`;
    $('#join-max').max = String(Math.max(1, pickedSeats()));
    $('#join-create').disabled = count < 2;
  }

  function pick(id) {
    if (state.picked.has(id)) state.picked.delete(id);
    else state.picked.add(id);
    if (!state.joining) {
      state.joining = true;
      toggle.setAttribute('aria-pressed', 'true');
    }
    // The seats together: the most it may seat (usually lowered: joined tables lose a seat or two).
    $('#join-max').value = state.picked.size > 0 ? String(pickedSeats()) : '';
    renderForm();
    deps.redraw();
  }

  async function create(event) {
    event.preventDefault();
    $('#join-error').textContent = '';
    try {
      const created = await deps.api().request('POST', '/api/combinazioni', {
        name: $('#join-name').value.trim(),
        tableIds: [...state.picked],
        maxCovers: Number($('#join-max').value),
      });
      deps.notify(`Combination ${created.name} created (${coversText(created)})`, 'ok');
      form.reset();
      setJoining(false);
      await refresh();
    } catch (error) {
      $('#join-error').textContent = error.message;
    }
  }

  toggle.addEventListener('click', () => setJoining(!state.joining));
  $('#join-cancel').addEventListener('click', () => {
    form.reset();
    setJoining(false);
  });
  form.addEventListener('submit', (event) => void create(event));
  // Picking runs before the page's own handlers (capture) and keeps them from selecting or dragging.
  document.querySelector('#room')?.addEventListener(
    'pointerdown',
    (event) => {
      const group = event.target.closest?.('.table');
      if (!group || !deps.isAdmin() || !(state.joining || event.shiftKey)) return;
      event.stopPropagation();
      event.preventDefault();
      pick(group.dataset.id);
    },
    { capture: true },
  );

  async function refresh() {
    const roomId = deps.roomId();
    if (!roomId) return;
    try {
      const list = await deps.api().request('GET', `/api/combinazioni?salaId=${encodeURIComponent(roomId)}`);
      if (roomId !== deps.roomId()) return;
      state.list = list;
      deps.redraw();
    } catch (error) {
      deps.notify(`Combinations: ${error.message}`);
    }
  }

  /** Draws the room's combinations under its tables and marks the picked tables (after each redraw). */
  function draw(svg) {
    toggle.hidden = !deps.isAdmin();
    const roomId = deps.roomId();
    const layer = svgEl('g', { class: 'combinations' });
    for (const combination of state.list.filter((c) => c.salaId === roomId)) {
      const members = combination.tableIds.map((id) => deps.tables().get(id)).filter(Boolean);
      const box = outlineOf(members.map((t) => deps.geometryOf(t)));
      if (!box || members.length < 2) continue;
      const group = svgEl('g', {
        class: `combination${combination.attivo ? '' : ' inactive'}`,
        'data-id': combination.id,
        'aria-label': `Combination ${combination.name}: ${members.map((t) => t.name).join(' + ')}, ${coversText(combination)}`,
        role: 'img',
      });
      group.append(svgEl('rect', { class: 'combination-outline', ...box, rx: 14 }));
      group.append(
        svgEl(
          'text',
          { class: 'combination-label', x: box.x + 8, y: box.y - 6 },
          `${combination.name} · ${coversText(combination)}${combination.attivo ? '' : ' (inactive)'}`,
        ),
      );
      layer.append(group);
    }
    svg.querySelector('.tables')?.before(layer);
    for (const id of state.picked)
      svg.querySelector(`.table[data-id="${CSS.escape(id)}"]`)?.classList.add('join-picked');
  }

  /** The name of a combination of the room, for a booking that holds it (undefined for others). */
  const nameOf = (id) => state.list.find((c) => c.id === id)?.name;

  return { refresh, draw, nameOf, joining: () => state.joining };
}
