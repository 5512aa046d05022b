import type { RestRoute } from '../rest-route.js';

/** Reminder settings (docs/reminders.md; subgraphs/promemoria/README.md). */
export const promemoriaRoutes: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/promemoria/impostazioni',
    operation: 'GetImpostazioniPromemoria',
    docs: {
      tag: 'Promemoria',
      summary: 'Read the reminder rules',
      description:
        'A reminder `orePrima|hoursBefore` hours before each active booking; until saved, one 24 hours before (`customized: false`).',
    },
    field: 'impostazioniPromemoria',
  },
  {
    method: 'PUT',
    path: '/api/promemoria/impostazioni',
    operation: 'UpdateImpostazioniPromemoria',
    docs: {
      tag: 'Promemoria',
      summary: 'Change the reminder rules (administrator)',
      description:
        'Replaces the rules (`promemoria|reminders`: at most 5, 1..720 hours, distinct, each with one of `orePrima|hoursBefore`: a rule with neither is a 400 naming it; `[]` = no reminders); the bookings still to come are planned again at once, with only reminders due after the change.',
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: { promemoria: [{ orePrima: 24 }, { orePrima: 2 }] },
    },
    field: 'updateImpostazioniPromemoria',
  },
];
