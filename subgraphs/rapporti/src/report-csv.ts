import type { ReportView, ServiceView } from './report-view.js';

/** The CSV columns, in order: the English names of a service's row (docs/reports.md). */
export const CSV_COLUMNS = [
  'date',
  'start',
  'end',
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
] as const satisfies ReadonlyArray<keyof ServiceView>;

/** RFC 4180: a header line, one line per service, CRLF; an empty field for null. No field needs quoting. */
export function reportCsv(report: ReportView): string {
  const lines = [
    CSV_COLUMNS.join(','),
    ...report.servizi.map((row) => CSV_COLUMNS.map((column) => String(row[column] ?? '')).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
