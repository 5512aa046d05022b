// Draws a room and its tables as SVG in the room's own units; the viewBox scales it to the window.
import { isAutoAssigned } from './auto-assigned.js';
import {
  bookingTime,
  isPlaced,
  seatSpots,
  STATUS_LABELS,
  stripHeight,
  stripSpots,
  timeLeft,
  upcomingBookings,
} from './model.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARGIN = 24;
const HANDLE = 12;

function el(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Redraws `svg` for `view`: { room, tables: [{ table, geometry }], bookings, at, bookedThen, selectedId,
 * editing, deviceId }. Keeps keyboard focus on the table that had it.
 */
export function renderRoom(svg, view) {
  const focusedId = document.activeElement?.closest?.('.table')?.dataset.id;
  const { room } = view;
  const unplaced = view.tables.filter((t) => !isPlaced(t.geometry));
  const spots = stripSpots(room, unplaced.length);
  const height = room.height + stripHeight(room, unplaced.length);
  svg.setAttribute('viewBox', `${-MARGIN} ${-MARGIN} ${room.width + 2 * MARGIN} ${height + 2 * MARGIN}`);
  svg.setAttribute('aria-label', `${room.name}, ${room.width} × ${room.height}`);
  svg.classList.toggle('editing', view.editing);
  // Labels about 12 px on screen whatever the room's scale (CSS px are user units inside the SVG).
  const scale = svg.clientWidth / (room.width + 2 * MARGIN) || 1;
  view = { ...view, labelSize: Math.min(24, Math.max(10, 12 / scale)) };
  svg.style.setProperty('--label-size', `${view.labelSize}px`);
  svg.replaceChildren();
  svg.append(el('rect', { class: 'room', x: 0, y: 0, width: room.width, height: room.height, rx: 6 }));
  if (unplaced.length > 0) {
    svg.append(el('text', { class: 'strip-label', x: 0, y: room.height + STRIP_LABEL_Y }, 'Not placed'));
  }
  const layer = el('g', { class: 'tables' });
  svg.append(layer);
  let spot = 0;
  for (const entry of view.tables) {
    const position = isPlaced(entry.geometry) ? entry.geometry : spots[spot++];
    layer.append(drawTable(entry, position, view));
  }
  if (focusedId) svg.querySelector(`.table[data-id="${CSS.escape(focusedId)}"]`)?.focus();
}

const STRIP_LABEL_Y = 28;

function drawTable({ table, geometry }, position, view) {
  const placed = isPlaced(geometry);
  const lock = table.lock && timeLeft(table.lock.expiresAt) ? table.lock : null;
  const next = upcomingBookings(view.bookings, table.id, view.at)[0];
  // The next party's allergies (host-view.js), marked on the table itself: seen without opening the panel.
  const allergies = next ? (view.allergiesOf?.(next.id) ?? []) : [];
  const bookedThen = view.bookedThen?.has(table.id) ?? false;
  const selected = view.selectedId === table.id;
  const classes = ['table', `status-${table.status}`];
  if (!placed) classes.push('unplaced');
  if (lock) classes.push(lock.deviceId === view.deviceId ? 'locked-here' : 'locked');
  if (bookedThen) classes.push('booked-then');
  if (selected) classes.push('selected');
  if (!table.attivo) classes.push('inactive');
  const label = [
    `Table ${table.name}`,
    STATUS_LABELS[table.status],
    `${table.seats} seats`,
    placed ? null : 'not placed',
    lock ? `locked by ${lock.operatorName || lock.deviceId}` : null,
    next
      ? `next booking ${bookingTime(next)} ${next.customerName}, ${next.covers}${isAutoAssigned(next) ? ', auto-assigned' : ''}`
      : null,
    allergies.length ? `allergies: ${allergies.join(', ')}` : null,
    bookedThen ? 'booked at the chosen time' : null,
  ]
    .filter(Boolean)
    .join(', ');
  const group = el('g', {
    class: classes.join(' '),
    'data-id': table.id,
    transform: `translate(${position.x} ${position.y})`,
    tabindex: 0,
    role: 'button',
    'aria-label': label,
    'aria-pressed': selected,
  });
  const body = el('g', { class: 'table-body', transform: `rotate(${geometry.rotation})` });
  for (const seat of seatSpots(geometry, table.seats)) {
    body.append(el('circle', { class: 'seat', cx: seat.x, cy: seat.y, r: 7 }));
  }
  const { width: w, height: h } = geometry;
  body.append(
    geometry.shape === 'round'
      ? el('ellipse', { class: 'table-shape', cx: 0, cy: 0, rx: w / 2, ry: h / 2 })
      : el('rect', { class: 'table-shape', x: -w / 2, y: -h / 2, width: w, height: h, rx: 6 }),
  );
  if (selected && view.editing) {
    body.append(
      el('circle', { class: 'handle resize', 'data-handle': 'resize', cx: w / 2, cy: h / 2, r: HANDLE }),
    );
    body.append(el('line', { class: 'handle-stem', x1: 0, y1: -h / 2, x2: 0, y2: -h / 2 - 30 }));
    body.append(
      el('circle', { class: 'handle rotate', 'data-handle': 'rotate', cx: 0, cy: -h / 2 - 30, r: HANDLE }),
    );
  }
  group.append(body);
  if (lock) group.append(padlock(Math.min(w, h) / 2));
  // Labels stay upright whatever the rotation.
  const lines = [{ cls: 'name', text: table.name }];
  if (lock) lines.push({ cls: 'lock', text: lock.operatorName || 'locked', expiresAt: lock.expiresAt });
  if (next) {
    const text = `${bookingTime(next)} ${next.customerName} ·${next.covers}`;
    lines.push({ cls: 'next', text, auto: isAutoAssigned(next), allergy: allergies.length > 0 });
  }
  if (bookedThen) lines.push({ cls: 'then', text: 'booked then' });
  if (!placed) lines.push({ cls: 'unplaced-tag', text: 'not placed' });
  const lineHeight = view.labelSize * 1.2;
  const top = -((lines.length - 1) * lineHeight) / 2;
  lines.forEach((line, i) => {
    const text = el('text', { class: `label ${line.cls}`, x: 0, y: top + i * lineHeight }, line.text);
    if (line.expiresAt) {
      const left = el(
        'tspan',
        { class: 'time-left', 'data-expires': line.expiresAt },
        ` ${timeLeft(line.expiresAt)}`,
      );
      text.append(left);
    }
    if (line.auto) text.append(el('tspan', { class: 'auto-badge' }, ' auto'));
    if (line.allergy) text.append(el('tspan', { class: 'allergy-mark' }, ' ⚠'));
    group.append(text);
  });
  return group;
}

/** A small padlock badge at the table's upper right (upright whatever the rotation). */
function padlock(half) {
  const badge = el('g', { class: 'padlock', transform: `translate(${half * 0.75} ${-half * 0.75 - 6})` });
  badge.append(el('circle', { class: 'padlock-disc', cx: 0, cy: 2, r: 11 }));
  badge.append(el('path', { class: 'padlock-shackle', d: 'M -4 1 V -3 A 4 4 0 0 1 4 -3 V 1' }));
  badge.append(el('rect', { class: 'padlock-body', x: -6, y: 0, width: 12, height: 9, rx: 2 }));
  return badge;
}

/** Updates the lock countdowns in place (every second), without a redraw. */
export function tickCountdowns(svg) {
  for (const span of svg.querySelectorAll('[data-expires]')) {
    span.textContent = ` ${timeLeft(span.dataset.expires) ?? '0:00'}`;
  }
}
