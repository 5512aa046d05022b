import { tagged } from '../rest-route.js';

/** A table's status history (staff) and the reports (administrator): docs/reports.md. */
export const rapportiRoutes = tagged('Report', [
  {
    method: 'GET',
    path: '/api/tavoli/:id/storico',
    operation: 'StoricoTavolo',
    docs: {
      summary: 'A table’s status history',
      description:
        'The table’s status changes, newest first (`storico` = `history`): `limite` 1..500 (default 50) of the newest 2,000 kept per table, each with its time, the status before it, orderId, pax and totalAmount.',
      query: {},
    },
    field: 'tavolo',
    notFound: 'Tavolo',
  },
  {
    method: 'GET',
    path: '/api/report',
    operation: 'Report',
    docs: {
      summary: 'Figures per service (administrator)',
      description:
        '`dal`..`al`: local dates, at most 366 days (else 400 naming `al`; `al` before `dal`: no service); `salaId`: one room’s tables only. One row per service (an opening interval of a date), covers seated by hour, actual turns by party size, and the totals; every figure is defined in docs/reports.md. `Accept: text/csv` gives the services as CSV (one row per service).',
      query: {},
      errors: ['FORBIDDEN'],
    },
    field: 'report',
    csv: { operation: 'ReportCsv', field: 'reportCsv' },
  },
  {
    method: 'GET',
    path: '/api/report/turni-suggeriti',
    operation: 'TurniSuggeriti',
    docs: {
      summary: 'Turn times from the actual turns (administrator)',
      description:
        'Per row of capacity’s `turnTimes`: the median actual turn of `dal`..`al` when at least 20 finished seatings back it, else the configured minutes (`datiSufficienti` false).',
      query: {},
      errors: ['FORBIDDEN'],
    },
    field: 'turniSuggeriti',
  },
  {
    method: 'POST',
    path: '/api/report/turni-suggeriti/applica',
    operation: 'ApplicaTurniSuggeriti',
    docs: {
      summary: 'Apply the suggested turn times (administrator)',
      description:
        'Writes the suggestions of `dal`..`al` as capacity’s `turnTimes` (rows without enough data keep their minutes; nothing is written when no row has enough) and returns them.',
      body: {},
      errors: ['FORBIDDEN'],
      example: { dal: '2026-11-01', al: '2026-11-30' },
    },
    field: 'applicaTurniSuggeriti',
  },
]);
