import { tagged } from '../rest-route.js';

/** Availability over times (docs/availability.md). */
export const disponibilitaRoutes = tagged('Prenotazioni', [
  {
    method: 'GET',
    path: '/api/disponibilita',
    operation: 'Disponibilita',
    docs: {
      summary: 'Every bookable time of a day for a party',
      description:
        "`data|date` (YYYY-MM-DD) and `coperti|covers` are required. A time is offered when it is a slot of capacity with room in pacing and the kitchen and the autoAssign rule (re-seating included when on) finds a place for the party's turn time, else a shortened stay of at least `shortenedMinMinutes` (`ridotto|shortened: true`, `durataMinuti|durationMinutes` the longest that fits). Without `ora|time` every time in order (`limite|limit` caps it); with it the nearest first (ties: the earlier), at most `limite` (1..50, default 5). Book one with `POST /api/prenotazioni` `{autoAssign: true, bookingDate, covers}` (plus `durationMinutes` for a shortened time). `postiTotali|spotsTotal` counts the party's places (active tables that seat it and combinations whose range holds it, in the room asked for) and each time's `postiLiberi|spotsOpen` how many of them are free for the stay (a time only re-seating makes room for: 1). `tableIds`/`combinationId` are null for a booking channel's key.",
      query: {},
    },
    field: 'disponibilita',
  },
]);
