/**
 * The simulated restaurant (scenario 8): two rooms, 60 tables of 2, 4, 6 and 8 seats in a mixed order (as tables
 * stand around a real room), the combinations that adjacent tables make, the turn times by party size and the
 * evening's hours. Pure data; the replay driver creates it through the REST API.
 */
export interface TurnTime {
  maxCovers: number;
  minutes: number;
}

/** The first row whose maxCovers holds the party; beyond the last row, its minutes (the service's rule). */
export function turnMinutes(turnTimes: readonly TurnTime[], covers: number): number {
  const row = turnTimes.find((t) => t.maxCovers >= covers) ?? turnTimes[turnTimes.length - 1];
  if (!row) throw new Error('turnTimes is empty');
  return row.minutes;
}

export interface TableSpec {
  name: string;
  seats: number;
  room: string;
}

export interface CombinationSpec {
  name: string;
  /** Table names, adjacent in their room. */
  tables: readonly string[];
  minCovers: number;
  maxCovers: number;
}

export interface RestaurantSpec {
  rooms: readonly string[];
  tables: readonly TableSpec[];
  combinations: readonly CombinationSpec[];
  turnTimes: readonly TurnTime[];
  /** Minutes after local midnight: the evening's seat-minutes are counted in [open, close). */
  open: number;
  close: number;
  /** Latest booking time and latest walk-in arrival (minutes after midnight). */
  lastSeating: number;
}

/** Seats of the tables in each room, in the order they stand (repeated three times). */
const ROOM_PATTERNS = [
  { room: 'Sala', prefix: 'S', pattern: [2, 2, 4, 4, 2, 6, 4, 2, 8, 4, 2, 6] },
  { room: 'Veranda', prefix: 'V', pattern: [2, 4, 2, 4, 8, 2, 4, 6] },
] as const;
const REPEATS = 3;

function tablesOf(room: (typeof ROOM_PATTERNS)[number]): TableSpec[] {
  const seats = Array.from({ length: REPEATS }, () => room.pattern).flat();
  return seats.map((s, i) => ({
    name: `${room.prefix}${String(i + 1).padStart(2, '0')}`,
    seats: s,
    room: room.room,
  }));
}

/**
 * Two neighbours join when together they seat at least 8: the joint loses a seat (two 4-tops seat 7, not 8)
 * and a party that one of them seats alone does not take both (minCovers = the larger table + 1).
 */
function combinationsOf(tables: readonly TableSpec[]): CombinationSpec[] {
  const combinations: CombinationSpec[] = [];
  for (let i = 0; i + 1 < tables.length; i++) {
    const [a, b] = [tables[i]!, tables[i + 1]!];
    if (a.seats + b.seats < 8) continue;
    const minCovers = Math.max(a.seats, b.seats) + 1;
    const maxCovers = a.seats + b.seats - 1;
    if (maxCovers < minCovers) continue;
    combinations.push({ name: `${a.name}+${b.name}`, tables: [a.name, b.name], minCovers, maxCovers });
  }
  return combinations;
}

export function restaurant(): RestaurantSpec {
  const perRoom = ROOM_PATTERNS.map(tablesOf);
  return {
    rooms: ROOM_PATTERNS.map((r) => r.room),
    tables: perRoom.flat(),
    combinations: perRoom.flatMap(combinationsOf),
    // Ascending maxCovers; parties beyond the last row take its minutes.
    turnTimes: [
      { maxCovers: 2, minutes: 90 },
      { maxCovers: 4, minutes: 105 },
      { maxCovers: 6, minutes: 120 },
      { maxCovers: 8, minutes: 135 },
      { maxCovers: 12, minutes: 150 },
    ],
    open: 18 * 60,
    close: 23 * 60,
    lastSeating: 21 * 60 + 30,
  };
}

/** Seats of all tables × the evening's minutes: the denominator of seat-minutes used and of demand levels. */
export function seatMinutesAvailable(spec: RestaurantSpec): number {
  return spec.tables.reduce((sum, t) => sum + t.seats, 0) * (spec.close - spec.open);
}
