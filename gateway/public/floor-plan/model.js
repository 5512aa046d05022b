// Pure helpers of the floor plan: where things go, what is next. No DOM here.

export const STATUSES = ['free', 'reserved', 'occupied', 'open', 'payment_pending', 'dirty'];
export const STATUS_LABELS = {
  free: 'Free',
  reserved: 'Reserved',
  occupied: 'Occupied',
  open: 'Open order',
  payment_pending: 'Payment pending',
  dirty: 'To clear',
};
/** A booking without its own duration holds its table this long (the service's default). */
const DEFAULT_BOOKING_MINUTES = 120;
/** The strip under the room where tables without a position wait (room units). */
export const STRIP_GAP = 40;
const STRIP_CELL = 120;

export const DEFAULT_GEOMETRY = { x: null, y: null, width: 80, height: 80, shape: 'rect', rotation: 0 };

export function geometryOf(table) {
  return {
    x: table.x ?? null,
    y: table.y ?? null,
    width: table.width ?? 80,
    height: table.height ?? 80,
    shape: table.shape ?? 'rect',
    rotation: table.rotation ?? 0,
  };
}

export const isPlaced = (geometry) => geometry.x !== null && geometry.y !== null;

/** Spots in the strip under a `room` for `count` tables without a position: rows of cells. */
export function stripSpots(room, count) {
  const perRow = Math.max(1, Math.floor(room.width / STRIP_CELL));
  return Array.from({ length: count }, (_, i) => ({
    x: STRIP_CELL / 2 + (i % perRow) * STRIP_CELL,
    y: room.height + STRIP_GAP + STRIP_CELL / 2 + Math.floor(i / perRow) * STRIP_CELL,
  }));
}

export function stripHeight(room, count) {
  if (count === 0) return 0;
  const perRow = Math.max(1, Math.floor(room.width / STRIP_CELL));
  return STRIP_GAP + Math.ceil(count / perRow) * STRIP_CELL;
}

export const clamp = (value, min, max) => Math.min(max, Math.max(min, value));

/** Chair positions around a table (its own frame, centre 0,0): one per seat, up to 24. */
export function seatSpots(geometry, seats) {
  const n = Math.min(Math.max(seats, 0), 24);
  const gap = 12;
  if (geometry.shape === 'round') {
    const rx = geometry.width / 2 + gap;
    const ry = geometry.height / 2 + gap;
    return Array.from({ length: n }, (_, i) => {
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      return { x: rx * Math.cos(angle), y: ry * Math.sin(angle) };
    });
  }
  // Chairs along the two long sides (the first side takes the odd one), evenly spaced.
  const long = Math.max(geometry.width, geometry.height);
  const across = Math.min(geometry.width, geometry.height) / 2 + gap;
  const first = Math.ceil(n / 2);
  const side = (count, sign) =>
    Array.from({ length: count }, (_, i) => ({
      along: -long / 2 + ((i + 0.5) * long) / count,
      across: sign * across,
    }));
  const spots = [...side(first, -1), ...side(n - first, 1)];
  return geometry.width >= geometry.height
    ? spots.map((s) => ({ x: s.along, y: s.across }))
    : spots.map((s) => ({ x: s.across, y: s.along }));
}

/**
 * When a booking starts and ends, in ms. `local` compares restaurant-local wall-clock times (the time
 * picker); otherwise UTC instants (now).
 */
function span(booking, local) {
  const start = local ? Date.parse(booking.bookingDate) : Date.parse(booking.startsAt);
  return { start, end: start + (booking.durationMinutes ?? DEFAULT_BOOKING_MINUTES) * 60_000 };
}

/**
 * The table's bookings that have not ended at `at` (a local 'YYYY-MM-DDTHH:mm', or null for now), soonest
 * first.
 */
export function upcomingBookings(bookings, tableId, at) {
  const local = at !== null;
  const reference = local ? Date.parse(at) : Date.now();
  return bookings
    .filter((b) => b.tableIds.includes(tableId) && span(b, local).end > reference)
    .sort((a, b) => span(a, local).start - span(b, local).start);
}

/** 'HH:mm' of a booking (restaurant-local, as the service stores it). */
export const bookingTime = (booking) => booking.bookingDate.slice(11, 16);

/** m:ss until `expiresAt`, or null once it passed. */
export function timeLeft(expiresAt, now = Date.now()) {
  const ms = Date.parse(expiresAt) - now;
  if (!(ms > 0)) return null;
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The browser's local date and time as 'YYYY-MM-DD' and 'YYYY-MM-DDTHH:mm'. */
export function localNow(date = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return { day, minute: `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}` };
}

/** Angle in whole degrees 0..359 of the vector (dx, dy), 0 pointing up, clockwise. */
export function angleOf(dx, dy) {
  const degrees = Math.round((Math.atan2(dx, -dy) * 180) / Math.PI);
  return ((degrees % 360) + 360) % 360;
}
