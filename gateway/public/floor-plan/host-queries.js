// The GraphQL documents the floor plan sends to /graphql: what the host sees of a booking's or a waiting party's
// guest (the ospiti subgraph, through federation) and of a booking's guarantee (the garanzie subgraph). Static
// text, so that `pnpm trusted-documents` lists them for deployments that run only trusted documents.

/** The day's active bookings with their guest and guarantee (the rest of each booking comes from REST). */
export const HOST_BOOKINGS = {
  query: `query FloorPlanHostBookings($filter: PrenotazioniFilter) { prenotazioni(filter: $filter) { id customerPhone customerEmail guest { id name tags allergies visits noShows lateCancellations } guarantee { type status amount currency dueAt } } }`,
};

/** Today's waitlist with each party's guest. */
export const HOST_WAITLIST = {
  query: `query FloorPlanHostWaitlist { listaAttesa { id customerPhone guest { id name tags allergies visits noShows lateCancellations } } }`,
};

/** One guest with their history: their bookings, latest first. */
export const GUEST_HISTORY = {
  query: `query FloorPlanGuestHistory($id: ID!) { ospite(id: $id) { id name phone email tags allergies notes visits noShows lateCancellations lastVisit bookings { id dataOra covers state tableIds } } }`,
};
