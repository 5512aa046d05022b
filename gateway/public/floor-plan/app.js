// The live floor plan: signs in with a pasted token, draws the chosen room, follows it live, lets a waiter
// change statuses and locks and an administrator edit the layout. Talks to the public API only.
import { ApiError, createApi } from './api.js';
import { createCombinations } from './combinations.js';
import { connectLive } from './live.js';
import { createOptions, OPTIONS_POLL_MS } from './options.js';
import { angleOf, clamp, geometryOf, isPlaced, localNow } from './model.js';
import { createHostView } from './host-view.js';
import { renderPanel } from './panel.js';
import { mountReport } from './report.js';
import { renderRoom, tickCountdowns } from './render.js';
import { mountWaitlist } from './waitlist-panel.js';
import {
  deviceId,
  forgetToken,
  keepOperatorName,
  keepToken,
  operatorName,
  readClaims,
  storedToken,
} from './session.js';

/** Locks have no event: the tables are read again this often (and after every action). */
const LOCK_POLL_MS = 15_000;
const $ = (selector) => document.querySelector(selector);

const state = {
  api: null,
  claims: null,
  rooms: [],
  roomId: null,
  tables: new Map(),
  bookings: [],
  /** Restaurant-local 'YYYY-MM-DDTHH:mm' chosen with the time picker, or null for now. */
  at: null,
  /** Ids of the room's tables the availability check finds free at `at` (null: no time chosen). */
  freeThen: null,
  selectedId: null,
  editing: false,
  /** Unsaved layout changes: table id → geometry. */
  edits: new Map(),
  drag: null,
  stopLive: null,
  timers: [],
  /** The waitlist panel (waitlist-panel.js). */
  waitlist: null,
};

// ---------- signing in and out ----------

function showSignIn(message) {
  $('#signin').hidden = false;
  $('#app').hidden = true;
  $('#signin-error').textContent = message ?? '';
  $('#token').focus();
}

async function signIn(token) {
  const claims = readClaims(token);
  if (!claims) return showSignIn('That is not a token: paste the whole JWT (three parts separated by dots).');
  state.claims = claims;
  state.api = createApi(token, (message) => signOut(`Signed out: ${message}`));
  try {
    state.rooms = await state.api.rooms();
  } catch (error) {
    return showSignIn(error.message);
  }
  keepToken(token);
  $('#signin').hidden = true;
  $('#app').hidden = false;
  $('#who').textContent = `${claims.tenantId}${claims.isAdmin ? ' · administrator' : ''}`;
  $('#edit-toggle').hidden = !claims.isAdmin;
  $('#report-toggle').hidden = !claims.isAdmin;
  renderTabs();
  const fromHash = decodeURIComponent(location.hash.slice(1));
  await selectRoom(state.rooms.find((r) => r.id === fromHash)?.id ?? state.rooms[0]?.id ?? null);
  state.waitlist = mountWaitlist({
    root: $('#waitlist'),
    api: state.api,
    tableName: (id) => state.tables.get(id)?.name,
    notify,
    onPicking: (active) => $('#room').classList.toggle('picking', active),
    guests: { refresh: () => hostView.refreshWaitlist(), forEntry: (id) => hostView.forEntry(id) },
  });
  state.stopLive = connectLive({
    token,
    onTable: (table) => {
      applyTable(table);
      state.waitlist?.tablesChanged();
    },
    onBooking: () => void Promise.all([refreshBookings(), refreshBookedThen(), options.refresh()]),
    onWaitlist: () => void state.waitlist?.refresh(),
    // What the live events cannot bring (first connection, a gap the server cannot replay): read it again.
    onReload: (kind) =>
      void (kind === 'tables'
        ? Promise.all([refreshTables(), combinations.refresh()])
        : kind === 'bookings'
          ? Promise.all([refreshBookings(), refreshBookedThen(), options.refresh()])
          : state.waitlist?.refresh()),
    onConnected: () => ($('#banner').hidden = true),
    onDown: () => ($('#banner').hidden = false),
    onError: (message) => notify(`Live updates: ${message}`),
  });
  state.timers.push(setInterval(() => void refreshTables(), LOCK_POLL_MS));
  state.timers.push(setInterval(() => void options.refresh(), OPTIONS_POLL_MS));
  state.timers.push(
    setInterval(() => {
      tickCountdowns($('#room'));
      options.tick($('#room'));
    }, 1000),
  );
}

function signOut(message) {
  forgetToken();
  state.stopLive?.();
  state.stopLive = null;
  state.waitlist?.stop();
  state.waitlist = null;
  hostView.stop();
  for (const timer of state.timers) clearInterval(timer);
  state.timers = [];
  state.tables.clear();
  state.edits.clear();
  state.editing = false;
  reportView.show(false);
  showSignIn(message);
}

// ---------- reading ----------

async function selectRoom(roomId) {
  state.roomId = roomId;
  state.selectedId = null;
  state.edits.clear();
  if (roomId) history.replaceState(null, '', `#${encodeURIComponent(roomId)}`);
  renderTabs();
  await catchUp();
}

/** Everything the room shows, read again (first load, reconnection, time change). */
async function catchUp() {
  await Promise.all([
    refreshTables(),
    refreshBookings(),
    refreshBookedThen(),
    combinations.refresh(),
    options.refresh(),
  ]);
}

async function refreshTables() {
  const roomId = state.roomId;
  if (!roomId) return draw();
  try {
    const tables = await state.api.tables(roomId);
    if (roomId !== state.roomId) return;
    state.tables = new Map(tables.map((t) => [t.id, t]));
    draw();
  } catch (error) {
    report(error);
  }
}

async function refreshBookings() {
  try {
    const date = (state.at ?? localNow().minute).slice(0, 10);
    const [bookings] = await Promise.all([state.api.bookingsOfDay(date), hostView.refreshBookings(date)]);
    state.bookings = bookings;
    draw();
  } catch (error) {
    report(error);
  }
}

async function refreshBookedThen() {
  if (!state.at || !state.roomId) {
    state.freeThen = null;
    return draw();
  }
  try {
    const { availableTables } = await state.api.availableAt(state.roomId, state.at);
    state.freeThen = new Set(availableTables.map((t) => t.id));
    draw();
  } catch (error) {
    report(error);
  }
}

/** A tables.status event: the table after the change, unless we already have a newer copy. */
function applyTable(table) {
  const current = state.tables.get(table.id);
  if (table.salaId !== state.roomId) {
    if (current) state.tables.delete(table.id);
  } else if (!current || table.updatedAt >= current.updatedAt) {
    state.tables.set(table.id, { ...current, ...table });
  }
  draw();
}

// ---------- drawing ----------

function renderTabs() {
  const tabs = $('#rooms');
  tabs.replaceChildren(
    ...state.rooms.map((room) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(room.id === state.roomId));
      tab.textContent = room.name;
      tab.addEventListener('click', () => void selectRoom(room.id));
      return tab;
    }),
  );
  $('#no-rooms').hidden = state.rooms.length > 0;
}

function entries() {
  return [...state.tables.values()]
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))
    .map((table) => ({ table, geometry: state.edits.get(table.id) ?? geometryOf(table) }));
}

function view() {
  const list = entries();
  return {
    room: state.rooms.find((r) => r.id === state.roomId),
    tables: list,
    selected: list.find((e) => e.table.id === state.selectedId) ?? null,
    selectedId: state.selectedId,
    bookings: state.bookings,
    combinationName: (id) => combinations.nameOf(id),
    hostFacts: (id) => hostView.forBooking(id),
    allergiesOf: (id) => hostView.allergiesOf(id),
    at: state.at,
    // Active tables the check leaves out are booked then (it leaves out inactive ones too).
    bookedThen: state.freeThen
      ? new Set(list.filter((e) => e.table.attivo && !state.freeThen.has(e.table.id)).map((e) => e.table.id))
      : null,
    editing: state.editing,
    deviceId: deviceId(),
    operatorName: operatorName(),
  };
}

function draw() {
  const current = view();
  $('#plan').hidden = !current.room;
  $('#save-layout').hidden = !state.editing;
  $('#discard-layout').hidden = !state.editing;
  $('#save-layout').textContent = `Save layout${state.edits.size ? ` (${state.edits.size})` : ''}`;
  $('#save-layout').disabled = state.edits.size === 0;
  $('#edit-toggle').setAttribute('aria-pressed', String(state.editing));
  if (!current.room) return;
  if (!state.drag) renderRoom($('#room'), current);
  if (!state.drag) combinations.draw($('#room'));
  if (!state.drag) options.draw($('#room'));
  const panel = $('#panel');
  // Do not rebuild the panel under the user's fingers (typing the operator name, a number field).
  if (!panel.contains(document.activeElement) || document.activeElement.tagName === 'BUTTON') {
    renderPanel(panel, current, panelActions);
  }
}

// ---------- actions ----------

const selectedTable = () => state.tables.get(state.selectedId);

async function act(work) {
  try {
    await work();
  } catch (error) {
    report(error);
  }
  await refreshTables();
}

const panelActions = {
  setStatus: (status) =>
    act(async () => {
      const updated = await state.api.setStatus(state.selectedId, status, deviceId());
      state.tables.set(updated.id, updated);
      notify(`Table ${updated.name}: ${status.replace('_', ' ')}`, 'ok');
    }),
  lock: () =>
    act(async () => {
      await state.api.lock(state.selectedId, deviceId(), operatorName());
      notify(`Table ${selectedTable()?.name} locked by this device`, 'ok');
    }),
  unlock: () =>
    act(async () => {
      const { released } = await state.api.unlock(state.selectedId, deviceId());
      notify(released ? 'Lock released' : 'There was no lock to release', 'ok');
    }),
  setOperator: (name) => keepOperatorName(name),
  editGeometry: (patch) => {
    editGeometry(state.selectedId, patch);
    draw();
  },
};

function editGeometry(id, patch) {
  const table = state.tables.get(id);
  const room = state.rooms.find((r) => r.id === state.roomId);
  if (!table || !room) return;
  const next = { ...(state.edits.get(id) ?? geometryOf(table)), ...patch };
  if (isPlaced(next)) {
    next.x = Math.round(clamp(next.x, 0, room.width));
    next.y = Math.round(clamp(next.y, 0, room.height));
  }
  next.width = Math.max(10, Math.round(next.width));
  next.height = Math.max(10, Math.round(next.height));
  next.rotation = ((Math.round(next.rotation) % 360) + 360) % 360;
  state.edits.set(id, next);
}

async function saveLayout() {
  const pending = [...state.edits.entries()];
  let saved = 0;
  for (const [id, geometry] of pending) {
    try {
      await state.api.saveGeometry(id, geometry);
      state.edits.delete(id);
      saved++;
    } catch (error) {
      report(error, `Table ${state.tables.get(id)?.name ?? id}`);
    }
  }
  if (saved) notify(`Layout saved (${saved} table${saved === 1 ? '' : 's'})`, 'ok');
  await refreshTables();
}

// ---------- pointer and keyboard editing ----------

/** The pointer's position in the room's units. */
function roomPoint(event) {
  const svg = $('#room');
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return { x: point.x, y: point.y };
}

function onPointerDown(event) {
  const group = event.target.closest('.table');
  if (!group) return;
  select(group.dataset.id);
  if (!state.editing || event.button > 0) return;
  const entry = entries().find((e) => e.table.id === group.dataset.id);
  const start = roomPoint(event);
  const mode = event.target.dataset.handle ?? 'move';
  const origin = isPlaced(entry.geometry) ? entry.geometry : { ...entry.geometry, ...start };
  state.drag = { id: entry.table.id, mode, start, origin, moved: false };
  $('#room').setPointerCapture(event.pointerId);
  event.preventDefault();
}

function onPointerMove(event) {
  const drag = state.drag;
  if (!drag) return;
  const point = roomPoint(event);
  const { origin } = drag;
  if (drag.mode === 'move') {
    editGeometry(drag.id, { x: origin.x + point.x - drag.start.x, y: origin.y + point.y - drag.start.y });
  } else if (drag.mode === 'rotate') {
    editGeometry(drag.id, { rotation: angleOf(point.x - origin.x, point.y - origin.y) });
  } else {
    // Resize about the centre: the handle's distance from it, in the table's own (rotated) frame.
    const angle = (-origin.rotation * Math.PI) / 180;
    const dx = point.x - origin.x;
    const dy = point.y - origin.y;
    const localX = dx * Math.cos(angle) - dy * Math.sin(angle);
    const localY = dx * Math.sin(angle) + dy * Math.cos(angle);
    editGeometry(drag.id, { width: 2 * Math.abs(localX), height: 2 * Math.abs(localY) });
  }
  drag.moved = true;
  renderRoom($('#room'), view());
}

function onPointerUp() {
  if (!state.drag) return;
  state.drag = null;
  draw();
}

function select(id) {
  if (state.waitlist?.tableClicked(id)) return;
  state.selectedId = id;
  draw();
}

function onKeyDown(event) {
  const group = event.target.closest?.('.table');
  if (!group) return;
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    select(group.dataset.id);
    return;
  }
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (!state.editing || !arrows[event.key]) return;
  event.preventDefault();
  const id = group.dataset.id;
  const current = state.edits.get(id) ?? geometryOf(state.tables.get(id));
  const step = event.shiftKey ? 1 : 10;
  const [dx, dy] = arrows[event.key];
  const room = state.rooms.find((r) => r.id === state.roomId);
  const base = isPlaced(current) ? current : { ...current, x: room.width / 2, y: room.height / 2 };
  state.selectedId = id;
  editGeometry(id, { x: base.x + dx * step, y: base.y + dy * step });
  draw();
}

// ---------- messages ----------

let messageTimer;
function notify(message, kind = 'error') {
  const box = $('#messages');
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => (box.hidden = true), 8000);
}

function report(error, prefix) {
  const message = error instanceof ApiError ? error.message : 'Something went wrong';
  if (error instanceof ApiError && error.status === 401) return;
  notify(prefix ? `${prefix}: ${message}` : message);
}

// ---------- wiring ----------

const combinations = createCombinations({
  api: () => state.api,
  roomId: () => state.roomId,
  tables: () => state.tables,
  geometryOf: (table) => state.edits.get(table.id) ?? geometryOf(table),
  isAdmin: () => Boolean(state.claims?.isAdmin),
  notify,
  redraw: () => draw(),
});

const hostView = createHostView({
  api: () => state.api,
  notify,
  onLate: (kind) => (kind === 'bookings' ? draw() : state.waitlist?.refresh()),
});

const options = createOptions({
  api: () => state.api,
  tables: () => state.tables,
  geometryOf: (table) => state.edits.get(table.id) ?? geometryOf(table),
  notify,
  redraw: () => draw(),
});

const reportView = mountReport({
  root: $('#report'),
  toggle: $('#report-toggle'),
  api: () => state.api,
  rooms: () => state.rooms,
});

function start() {
  $('#signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn(
      $('#token')
        .value.trim()
        .replace(/^Bearer\s+/i, ''),
    );
  });
  $('#sign-out').addEventListener('click', () => signOut());
  $('#edit-toggle').addEventListener('click', () => {
    state.editing = !state.editing;
    if (!state.editing) state.edits.clear();
    draw();
  });
  $('#save-layout').addEventListener('click', () => void saveLayout());
  $('#discard-layout').addEventListener('click', () => {
    state.edits.clear();
    draw();
  });
  const picker = $('#at');
  picker.addEventListener('change', () => {
    state.at = picker.value ? picker.value.slice(0, 16) : null;
    $('#now').disabled = !state.at;
    void catchUp();
  });
  $('#now').addEventListener('click', () => {
    picker.value = '';
    state.at = null;
    $('#now').disabled = true;
    void catchUp();
  });
  const svg = $('#room');
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  svg.addEventListener('pointercancel', onPointerUp);
  svg.addEventListener('keydown', onKeyDown);
  window.addEventListener('resize', () => state.api && draw());
  const token = storedToken();
  if (token) void signIn(token);
  else showSignIn();
}

start();
