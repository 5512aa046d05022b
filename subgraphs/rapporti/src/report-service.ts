import { requireAdmin, type Viewer } from '@coperto/auth';
import { InputChecks, parseLocalDate, turnMinutes, type TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { RapportiApplyTurnTimesDocument, RapportiSlotConfigDocument } from './generated/capacity-calls.js';
import { RapportiTablesDocument } from './generated/tavolo-calls.js';
import type { RapportiStore } from './rapporti-store.js';
import { computeReport, type ReportFigures } from './report.js';
import { reportCsv } from './report-csv.js';
import { reportView, type ReportView } from './report-view.js';
import { partiesOf, tableSeatings, type BookingFact } from './seatings.js';
import { MAX_REPORT_DAYS, rangeBounds, servicesBetween } from './services.js';
import { suggestTurnTimes, type TurnSuggestion } from './turn-suggestions.js';

export interface ReportArgs {
  dal: string;
  al: string;
  salaId?: string | null;
}

export interface ReportServiceDeps {
  store: RapportiStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
}

const DAY = 86_400_000;
/** The largest maxCovers capacity takes in a turn time row. */
const MAX_ROW_COVERS = 1000;
/** How far before the range changes and bookings are read: a turn begun the evening before still counts. */
const LOOK_AROUND_MS = DAY;

/** The reports of an administrator: figures per service, CSV, suggested turn times and applying them. */
export class ReportService {
  constructor(private readonly deps: ReportServiceDeps) {}

  async report(args: ReportArgs): Promise<ReportView> {
    const { query, figures } = await this.figures(args);
    return reportView(query, figures);
  }

  async csv(args: ReportArgs): Promise<string> {
    return reportCsv(await this.report(args));
  }

  async suggestions(args: ReportArgs): Promise<TurnSuggestion[]> {
    const { figures } = await this.figures({ dal: args.dal, al: args.al });
    return suggestTurnTimes(figures.turns);
  }

  /** Writes the suggestions as capacity's turnTimes (through capacity's own mutation and its checks). */
  async apply(args: ReportArgs): Promise<TurnSuggestion[]> {
    const suggestions = await this.suggestions(args);
    if (suggestions.some((s) => s.datiSufficienti)) {
      await this.deps.subgraphs.request(
        'capacity',
        RapportiApplyTurnTimesDocument,
        { turnTimes: suggestions.map((s) => ({ maxCovers: s.maxCovers, minutes: s.suggeritiMinuti })) },
        this.authorization(),
      );
    }
    return suggestions;
  }

  private authorization(): string {
    return `Bearer ${this.deps.viewer.token}`;
  }

  private async figures(
    args: ReportArgs,
  ): Promise<{ query: { dal: string; al: string; salaId: string | null }; figures: ReportFigures }> {
    requireAdmin(this.deps.viewer, 'read reports');
    const dal = parseLocalDate(args.dal);
    const al = parseLocalDate(args.al);
    const checks = new InputChecks();
    if (!dal) checks.add('dal', 'must be a date YYYY-MM-DD');
    if (!al) checks.add('al', 'must be a date YYYY-MM-DD');
    if (dal && al && Date.parse(al) - Date.parse(dal) >= MAX_REPORT_DAYS * DAY)
      checks.add('al', `at most ${MAX_REPORT_DAYS} days after dal`);
    checks.throwIfAny();
    const salaId = args.salaId ?? null;
    const authorization = this.authorization();
    const [{ slotConfig }, { tavoli }] = await Promise.all([
      this.deps.subgraphs.request('capacity', RapportiSlotConfigDocument, {}, authorization),
      this.deps.subgraphs.request('tavolo', RapportiTablesDocument, {}, authorization),
    ]);
    const zone = slotConfig.timeZone;
    const range = rangeBounds(dal!, al!, zone);
    const inRoom = new Set(tavoli.filter((t) => salaId === null || t.salaId === salaId).map((t) => t.id));
    const seats = tavoli.filter((t) => t.attivo && inRoom.has(t.id)).reduce((sum, t) => sum + t.seats, 0);
    const [changes, bookings] = await Promise.all([
      this.deps.store.changesBetween(
        new Date(range.startMs - LOOK_AROUND_MS),
        new Date(range.endMs + LOOK_AROUND_MS),
      ),
      this.deps.store.bookingsBetween(
        new Date(range.startMs - LOOK_AROUND_MS),
        new Date(range.endMs + LOOK_AROUND_MS),
      ),
    ]);
    const stay = (covers: number) => turnMinutes(slotConfig.turnTimes, covers, slotConfig.defaultMealMinutes);
    const bookingFacts: BookingFact[] = bookings
      .filter((b) => salaId === null || b.tableIds.some((id) => inRoom.has(id)))
      .map((b) => ({
        id: b.id,
        startsAt: Date.parse(b.startsAt),
        covers: b.covers,
        tableIds: b.tableIds,
        state: b.state,
        stayMinutes: b.durationMinutes ?? stay(b.covers),
        walkIn: b.walkIn,
      }));
    const seatings = tableSeatings(
      changes
        .filter((c) => salaId === null || inRoom.has(c.tavoloId))
        .map((c) => ({
          id: c.id,
          tavoloId: c.tavoloId,
          at: Date.parse(c.at),
          stato: c.stato,
          pax: c.pax,
          totalAmount: c.totalAmount,
        })),
    );
    const parties = partiesOf(seatings, bookingFacts);
    const figures = computeReport({
      dal: dal!,
      al: al!,
      salaId,
      zone,
      services: servicesBetween(dal!, al!, zone, slotConfig.openingHours),
      range,
      seats,
      turnRows: turnRowsOf(slotConfig.turnTimes, slotConfig.defaultMealMinutes, parties),
      parties,
      bookings: bookingFacts,
      now: this.deps.now().getTime(),
    });
    return { query: { dal: dal!, al: al!, salaId }, figures };
  }
}

/** Capacity's rows; without rows, one row for every party (the largest seen) at the default meal minutes. */
export function turnRowsOf(
  turnTimes: readonly TurnTime[],
  defaultMealMinutes: number,
  parties: ReadonlyArray<{ covers: number }>,
): TurnTime[] {
  if (turnTimes.length > 0) return [...turnTimes];
  const largest = parties.reduce((max, p) => Math.max(max, p.covers), 1);
  return [{ maxCovers: Math.min(largest, MAX_ROW_COVERS), minutes: defaultMealMinutes }];
}
