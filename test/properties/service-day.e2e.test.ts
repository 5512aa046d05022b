/**
 * Reports proven against generated service days (docs/reports.md; issue 39's "Done when"), in both modes: each day,
 * in a tenant of its own, is played through the public REST API (tables in two rooms, bookings seated late or
 * early, one party at two tables, waitlist seatings, parties no booking explains, pax given or not, checks paid
 * once or twice, tables left dirty or free, no-shows, cancellations, bookings still to come, a table deactivated
 * afterwards), in a zone with a local hour near midday. The service runs on the real clock, so the truth takes
 * each change's time from the table's history and everything else from what the test did; the opening hours are
 * set afterwards, with services one minute long around the played minutes (revenue and seats split between them).
 * Then the report (JSON, CSV, GraphQL, and one room's) equals the truth computed in service-day-truth.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES } from '../support/modes.js';
import type { Stack } from '../support/stack.js';
import { assertProperty, budget } from './budget.js';
import { dayArb, normalise, type DayPlan } from './service-day-program.js';
import { localDate, playDay, SETTLE_MS, type PlayedDay } from './service-day-runner.js';
import { truthCsv, truthReport, type TruthDay, type TruthReport } from './service-day-truth.js';
import { startPropertyStack, type PropertyStack } from './stacks.js';

const plan = budget(process.env, 6_000);
const MINUTE = 60_000;

/** Every weekday's intervals, local minutes: earlier, a gap, before, the played minutes one by one, after. */
function intervalsAround(
  layout: DayPlan['layout'],
  span: PlayedDay['span'],
  offset: number,
): Array<[number, number]> {
  const minuteOf = (at: number) => Math.floor((at + offset * MINUTE) / MINUTE) % 1440;
  const first = minuteOf(span.first);
  const last = Math.min(minuteOf(span.last), first + 5);
  const beforeFrom = first - layout.before;
  const earlierTo = beforeFrom - layout.gap;
  const played: Array<[number, number]> = [];
  for (let m = first; m <= last; m++) played.push([m, m + 1]);
  return [
    [earlierTo - layout.earlier, earlierTo],
    [beforeFrom, first],
    ...played,
    [last + 1, last + 1 + layout.after],
  ];
}

/**
 * The paths where an answer differs from the truth. A party still seated counts up to the report's clock, which
 * is between the truth's `early` (before the request) and `late` (after the answer): a figure that moves with it
 * must lie between the two.
 */
function differences(got: unknown, early: unknown, late: unknown, path = ''): string[] {
  const text = JSON.stringify(got);
  if (text === JSON.stringify(early) || text === JSON.stringify(late)) return [];
  if (typeof got === 'number' && typeof early === 'number' && typeof late === 'number')
    return Math.min(early, late) <= got && got <= Math.max(early, late)
      ? []
      : [`${path}: got ${got}, truth between ${early} and ${late}`];
  if (
    got &&
    early &&
    late &&
    typeof got === 'object' &&
    typeof early === 'object' &&
    typeof late === 'object'
  ) {
    const keys = new Set([...Object.keys(got), ...Object.keys(early)]);
    return [...keys].flatMap((k) =>
      differences((got as any)[k], (early as any)[k], (late as any)[k], `${path}.${k}`),
    );
  }
  return [`${path}: got ${text}, truth ${JSON.stringify(early)}`];
}

/** An answer read between two instants, with the truth at each of them. */
async function between<T>(
  truthAt: (now: number) => unknown,
  read: () => Promise<T>,
): Promise<{ answer: T; early: unknown; late: unknown }> {
  const early = truthAt(Date.now());
  const answer = await read();
  return { answer, early, late: truthAt(Date.now()) };
}

/** Fails with the differences (and the day's record) unless the answer is the truth. */
function same(
  { answer, early, late }: { answer: unknown; early: unknown; late: unknown },
  where: string,
): void {
  const found = differences(answer, early, late);
  if (found.length > 0) throw new Error(`${where}:\n${found.join('\n')}`);
}

/** A CSV answer: exactly the truth's text when no figure moves with the clock, else its rows' figures. */
function sameCsv(csv: unknown, early: TruthReport, late: TruthReport, where: string): void {
  const [wanted, wantedLate] = [truthCsv(early), truthCsv(late)];
  if (csv === wanted || csv === wantedLate) return;
  expect(typeof csv === 'string' && csv.split('\r\n')[0], where).toBe(wanted.split('\r\n')[0]);
  const [header, ...lines] = String(csv).split('\r\n').slice(0, -1);
  const rows = lines.map((line) => {
    const fields = line.split(',');
    return Object.fromEntries(
      header!.split(',').map((name, i) => {
        const field = fields[i]!;
        const value = i < 3 ? field : field === '' ? null : Number(field);
        if (typeof value === 'number') expect(String(value), where).toBe(field);
        return [name, value];
      }),
    );
  });
  same({ answer: rows, early: early.services, late: late.services }, `CSV, ${where}`);
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Italian and English names of the same figure (each must equal the other). */
const ALIASES = [
  ['data', 'date'],
  ['inizio', 'start'],
  ['fine', 'end'],
  ['copertiPrenotati', 'coversBooked'],
  ['copertiSeduti', 'coversSeated'],
  ['walkIn', 'walkIns'],
  ['noShow', 'noShows'],
  ['prenotazioniDovute', 'bookingsDue'],
  ['tassoNoShow', 'noShowRate'],
  ['annullamenti', 'cancellations'],
  ['utilizzoPosti', 'seatUtilisation'],
  ['ricavo', 'revenue'],
  ['ricavoPerPostoOra', 'revPash'],
  ['ora', 'hour'],
  ['coperti', 'covers'],
  ['sedute', 'seatings'],
  ['medianaMinuti', 'medianMinutes'],
  ['configuratiMinuti', 'configuredMinutes'],
] as const;
const FIGURES = [
  'coversBooked',
  'coversSeated',
  'walkIns',
  'noShows',
  'bookingsDue',
  'noShowRate',
  'cancellations',
  'seatUtilisation',
  'revenue',
  'revPash',
] as const;

/** The English figures of an answer, after checking each Italian name says the same. */
function english(report: any): TruthReport {
  const pick = (row: any, keys: readonly string[]) => {
    for (const [it, en] of ALIASES)
      if (en in row && row[it] !== row[en]) throw new Error(`${it} ${row[it]} ≠ ${en} ${row[en]}`);
    return Object.fromEntries(keys.map((k) => [k, row[k]]));
  };
  const lists = [
    ['servizi', 'services'],
    ['perOra', 'byHour'],
    ['turni', 'turns'],
    ['totali', 'totals'],
  ] as const;
  for (const [it, en] of lists)
    if (JSON.stringify(report[it]) !== JSON.stringify(report[en])) throw new Error(`${it} ≠ ${en}`);
  return {
    services: report.services.map((s: any) => pick(s, ['date', 'start', 'end', ...FIGURES])),
    byHour: report.byHour.map((h: any) => pick(h, ['hour', 'covers'])),
    turns: report.turns.map((t: any) =>
      pick(t, ['covers', 'seatings', 'medianMinutes', 'configuredMinutes']),
    ),
    totals: pick(report.totals, FIGURES) as TruthReport['totals'],
  };
}

const ROW = `data date inizio start fine end ${FIGURES.join(' ')} copertiPrenotati copertiSeduti walkIn noShow
  prenotazioniDovute tassoNoShow annullamenti utilizzoPosti ricavo ricavoPerPostoOra`;
const REPORT_QUERY = `query($dal: LocalDate!, $al: LocalDate!) {
  report(dal: $dal, al: $al) { servizi { ${ROW} } services { ${ROW} } perOra { ora hour coperti covers }
    byHour { ora hour coperti covers }
    turni { coperti covers sedute seatings medianaMinuti medianMinutes configuratiMinuti configuredMinutes }
    turns { coperti covers sedute seatings medianaMinuti medianMinutes configuratiMinuti configuredMinutes }
    totali { ${FIGURES.join(' ')} copertiPrenotati copertiSeduti walkIn noShow prenotazioniDovute tassoNoShow
      annullamenti utilizzoPosti ricavo ricavoPerPostoOra }
    totals { ${FIGURES.join(' ')} copertiPrenotati copertiSeduti walkIn noShow prenotazioniDovute tassoNoShow
      annullamenti utilizzoPosti ricavo ricavoPerPostoOra } }
  reportCsv(dal: $dal, al: $al) }`;

/** What the days checked held (to show the suite exercises each rule): days with each, summed. */
type Seen = Record<'splitChecks' | 'stillSeated' | 'waitlist' | 'noShows' | 'twoTables' | 'multiDay', number>;

function seenIn(day: PlayedDay['day'], truth: TruthReport, seen: Seen): void {
  const count = (key: keyof Seen, yes: boolean) => void (seen[key] += yes ? 1 : 0);
  count('splitChecks', truth.services.filter((s) => s.revenue > 0).length > 1);
  count(
    'stillSeated',
    day.turns.some((t) => t.end === null),
  );
  count(
    'waitlist',
    day.bookings.some((b) => b.walkIn),
  );
  count('noShows', truth.totals.noShows > 0);
  count(
    'twoTables',
    day.bookings.some((b) => !b.walkIn && b.tableIds.length > 1 && b.state === 'completata'),
  );
  count('multiDay', new Set(truth.services.map((s) => s.date)).size > 1);
}

async function checkDay(stack: Stack, raw: DayPlan, seen: Seen): Promise<void> {
  const dayPlan = normalise(raw);
  const played = await playDay(stack, dayPlan);
  const { offsetMinutes } = played.day;
  const intervals = intervalsAround(dayPlan.layout, played.span, offsetMinutes);
  const res = await stack.api('PUT', '/api/capacity/config', {
    token: played.admin,
    body: {
      openingHours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
        weekday,
        intervals: intervals.map(([open, close]) => ({ open: hhmm(open), close: hhmm(close) })),
      })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const dal = localDate(played.span.first, offsetMinutes, -dayPlan.range.back);
  const al = localDate(played.span.first, offsetMinutes, dayPlan.range.ahead);
  const truthAt =
    (roomId: string | null = null) =>
    (now: number): TruthReport =>
      truthReport({ ...played.day, dal, al, intervals, now } satisfies TruthDay, roomId);
  const query = `dal=${dal}&al=${al}`;
  const read = async (path: string, accept = 'application/json') => {
    const res = await stack.api('GET', path, {
      token: played.admin,
      headers: { accept },
      openapi: accept !== 'text/csv',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const where =
    `zone ${played.zone}, ${query}, opening ${JSON.stringify(intervals.map((i) => i.map(hhmm)))}\n` +
    `turns ${JSON.stringify(played.day.turns)}\nbookings ${JSON.stringify(played.day.bookings)}`;
  // The bookings' facts reach rapporti through the events: the report equals the truth once they are all in.
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const json = await between(truthAt(), async () => english((await read(`/api/report?${query}`)).body));
    if (differences(json.answer, json.early, json.late).length === 0) {
      seenIn(played.day, json.early as TruthReport, seen);
      break;
    }
    if (Date.now() > deadline) same(json, where);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const csv = await between(truthAt(), () => read(`/api/report?${query}`, 'text/csv'));
  expect(csv.answer.headers.get('content-type')).toMatch(/^text\/csv/);
  sameCsv(csv.answer.body, csv.early as TruthReport, csv.late as TruthReport, where);
  const graphql = await between(truthAt(), () => stack.graphql(played.admin, REPORT_QUERY, { dal, al }));
  expect(graphql.answer.body.errors, where).toBeUndefined();
  same({ ...graphql, answer: english(graphql.answer.body.data.report) }, `GraphQL, ${where}`);
  sameCsv(
    graphql.answer.body.data.reportCsv,
    graphql.early as TruthReport,
    graphql.late as TruthReport,
    where,
  );
  const room = await between(truthAt(played.rooms[0]!), async () =>
    english((await read(`/api/report?${query}&salaId=${played.rooms[0]}`)).body),
  );
  same(room, `room ${played.rooms[0]}, ${where}`);
}

describe.each(MODES)('reports of generated service days (%s mode)', (mode) => {
  let service: PropertyStack;
  beforeAll(async () => {
    service = await startPropertyStack(mode);
  });
  afterAll(async () => service?.close());

  it(
    'equal the truth the test knows: covers, walk-ins, no-shows, turns, utilisation, revenue per seat-hour',
    async () => {
      const seen: Seen = {
        splitChecks: 0,
        stillSeated: 0,
        waitlist: 0,
        noShows: 0,
        twoTables: 0,
        multiDay: 0,
      };
      const property = fc.asyncProperty(dayArb, (day) => checkDay(service.stack, day, seen));
      const days = await assertProperty(property, plan);
      console.info(`[props] service days ${mode}: ${days} days; days with ${JSON.stringify(seen)}`);
      expect(days).toBeGreaterThan(0);
    },
    plan.testTimeoutMs,
  );
});
