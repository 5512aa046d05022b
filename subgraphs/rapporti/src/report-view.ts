import type { ReportFigures, Sums, TurnRow } from './report.js';

/** The figures of a service or the range under both names, rounded (docs/reports.md). */
export interface TotalsView {
  copertiPrenotati: number;
  coversBooked: number;
  copertiSeduti: number;
  coversSeated: number;
  walkIn: number;
  walkIns: number;
  noShow: number;
  noShows: number;
  prenotazioniDovute: number;
  bookingsDue: number;
  tassoNoShow: number | null;
  noShowRate: number | null;
  annullamenti: number;
  cancellations: number;
  utilizzoPosti: number | null;
  seatUtilisation: number | null;
  ricavo: number;
  revenue: number;
  ricavoPerPostoOra: number | null;
  revPash: number | null;
}

export interface ServiceView extends TotalsView {
  data: string;
  date: string;
  inizio: string;
  start: string;
  fine: string;
  end: string;
}

export interface ReportView {
  dal: string;
  al: string;
  salaId: string | null;
  servizi: ServiceView[];
  services: ServiceView[];
  perOra: Array<{ ora: string; hour: string; coperti: number; covers: number }>;
  byHour: ReportView['perOra'];
  turni: TurnView[];
  turns: TurnView[];
  totali: TotalsView;
  totals: TotalsView;
}

export interface TurnView {
  coperti: number;
  covers: number;
  sedute: number;
  seatings: number;
  medianaMinuti: number | null;
  medianMinutes: number | null;
  configuratiMinuti: number;
  configuredMinutes: number;
}

/**
 * Rounds to `digits` decimals, half up, after dropping floating-point noise beyond 12 significant digits: revenue
 * spread over the minutes a table was occupied and summed back is 252.10999999999999 where the checks were 252.11, and
 * a half reached that way (1890.825 per seat-hour) must round as the half itself does.
 */
export const round = (value: number, digits: number): number => {
  const factor = 10 ** digits;
  return Math.round(Number((value * factor).toPrecision(12))) / factor;
};

const ratio = (numerator: number, denominator: number, digits: number): number | null =>
  denominator > 0 ? round(numerator / denominator, digits) : null;

export function totalsView(sums: Sums): TotalsView {
  const noShowRate = ratio(sums.noShows, sums.due, 4);
  const utilisation = ratio(sums.occupiedSeatMinutes, sums.availableSeatMinutes, 4);
  const revenue = round(sums.revenue, 2);
  const revPash = ratio(sums.revenue, sums.availableSeatMinutes / 60, 2);
  return {
    copertiPrenotati: sums.booked,
    coversBooked: sums.booked,
    copertiSeduti: sums.seated,
    coversSeated: sums.seated,
    walkIn: sums.walkIns,
    walkIns: sums.walkIns,
    noShow: sums.noShows,
    noShows: sums.noShows,
    prenotazioniDovute: sums.due,
    bookingsDue: sums.due,
    tassoNoShow: noShowRate,
    noShowRate,
    annullamenti: sums.cancellations,
    cancellations: sums.cancellations,
    utilizzoPosti: utilisation,
    seatUtilisation: utilisation,
    ricavo: revenue,
    revenue,
    ricavoPerPostoOra: revPash,
    revPash,
  };
}

function turnView(row: TurnRow): TurnView {
  return {
    coperti: row.maxCovers,
    covers: row.maxCovers,
    sedute: row.seatings,
    seatings: row.seatings,
    medianaMinuti: row.median,
    medianMinutes: row.median,
    configuratiMinuti: row.configured,
    configuredMinutes: row.configured,
  };
}

export function reportView(
  query: { dal: string; al: string; salaId: string | null },
  figures: ReportFigures,
): ReportView {
  const servizi = figures.services.map(({ service, sums }) => ({
    data: service.data,
    date: service.data,
    inizio: service.inizio,
    start: service.inizio,
    fine: service.fine,
    end: service.fine,
    ...totalsView(sums),
  }));
  const perOra = figures.byHour.map(({ hour, covers }) => ({ ora: hour, hour, coperti: covers, covers }));
  const turni = figures.turns.map(turnView);
  const totali = totalsView(figures.totals);
  return {
    ...query,
    servizi,
    services: servizi,
    perOra,
    byHour: perOra,
    turni,
    turns: turni,
    totali,
    totals: totali,
  };
}
