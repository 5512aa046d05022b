// The host's view of who is coming: each booking's and waiting party's guest, and each booking's guarantee, read
// through GraphQL (federation joins ospiti and garanzie to prenotazione's bookings), plus the guest's history in
// a dialog. The bookings and the waitlist themselves still come from REST; this adds to them by id.
import { h } from './dom.js';
import { guaranteeBadge, guestFacts } from './guest-facts.js';
import { GUEST_HISTORY, HOST_BOOKINGS, HOST_WAITLIST } from './host-queries.js';

/**
 * Guests are linked from the booking and waitlist events, a moment after the write: a booking or party with a
 * phone or an email but no guest yet is read once more after this long (once per booking or party).
 */
const LINK_LAG_MS = 1500;

const STATE_LABELS = {
  pending: 'pending',
  confermata: 'confirmed',
  caparra_pagata: 'guaranteed',
  completata: 'completed',
  annullata: 'cancelled',
  no_show: 'no-show',
};

/**
 * `api()` is the page's client (api.js), `notify(message)` shows a message. The refreshes never throw (the
 * plan and the queue show without guests when these cannot be read); draw after them. `onLate(kind)` runs when
 * guests linked late were read ('bookings' or 'waitlist'): draw that again. Returns { refreshBookings(date),
 * refreshWaitlist(), forBooking(id), allergiesOf(id), forEntry(id), stop() }.
 */
export function createHostView({ api, notify, onLate }) {
  const state = { bookings: new Map(), waitlist: new Map(), bookingsRead: 0, lastError: null };
  const retried = new Set();
  const timers = new Set();

  /** Reads `kind` once more in a moment when some of `items` (not retried yet) has a contact but no guest. */
  function awaitLinks(kind, items, reread) {
    const unlinked = items.filter(
      (item) => !item.guest && (item.customerPhone || item.customerEmail) && !retried.has(item.id),
    );
    if (unlinked.length === 0) return;
    for (const item of unlinked) retried.add(item.id);
    const timer = setTimeout(async () => {
      timers.delete(timer);
      await reread();
      onLate(kind);
    }, LINK_LAG_MS);
    timers.add(timer);
  }

  /** A partial answer (a subgraph down) still shows what came; its first error is said once. */
  function warn(errors) {
    const message = errors[0]?.message ?? null;
    if (message && message !== state.lastError) notify(`Guest details: ${message}`);
    state.lastError = message;
  }

  async function refreshBookings(date) {
    const read = ++state.bookingsRead;
    try {
      const { data, errors } = await api().graphql(HOST_BOOKINGS.query, {
        filter: { dal: date, al: date, activeOnly: true },
      });
      if (read !== state.bookingsRead) return;
      const bookings = data?.prenotazioni ?? [];
      state.bookings = new Map(bookings.map((b) => [b.id, b]));
      warn(errors);
      if (errors.length === 0) awaitLinks('bookings', bookings, () => refreshBookings(date));
    } catch (error) {
      if (error.status !== 401) warn([error]);
    }
  }

  async function refreshWaitlist() {
    try {
      const { data, errors } = await api().graphql(HOST_WAITLIST.query);
      const entries = data?.listaAttesa ?? [];
      state.waitlist = new Map(entries.map((e) => [e.id, e.guest]));
      warn(errors);
      if (errors.length === 0) awaitLinks('waitlist', entries, refreshWaitlist);
    } catch (error) {
      if (error.status !== 401) warn([error]);
    }
  }

  async function showHistory(guest) {
    let details;
    try {
      const { data, errors } = await api().graphql(GUEST_HISTORY.query, { id: guest.id });
      details = data?.ospite;
      if (!details) return notify(errors[0]?.message ?? `${guest.name ?? 'This guest'} is gone`);
    } catch (error) {
      return notify(error.message);
    }
    historyDialog(details).showModal();
  }

  /** Nodes to show beside booking `id`: its guarantee and its guest, when it has them. */
  function forBooking(id) {
    const facts = state.bookings.get(id);
    if (!facts) return [];
    return [
      facts.guarantee ? guaranteeBadge(facts.guarantee, Date.now()) : null,
      facts.guest ? guestFacts(facts.guest, showHistory) : null,
    ].filter(Boolean);
  }

  /** The allergies of booking `id`'s guest (none when it has no guest). */
  const allergiesOf = (id) => state.bookings.get(id)?.guest?.allergies ?? [];

  /** Nodes to show beside waitlist entry `id`: its guest, when it has one. */
  function forEntry(id) {
    const guest = state.waitlist.get(id);
    return guest ? [guestFacts(guest, showHistory)] : [];
  }

  return {
    refreshBookings,
    refreshWaitlist,
    forBooking,
    allergiesOf,
    forEntry,
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      document.querySelector('#guest-history')?.remove();
    },
  };
}

/** The guest's dialog: who they are, what to know, and their bookings, latest first. */
function historyDialog(guest) {
  document.querySelector('#guest-history')?.remove();
  const dialog = h(
    'dialog',
    { id: 'guest-history', 'aria-labelledby': 'guest-history-title' },
    h('h2', { id: 'guest-history-title' }, guest.name ?? 'Guest'),
    h('p', { class: 'contact' }, [guest.phone, guest.email].filter(Boolean).join(' · ') || 'No contact kept'),
    guestFacts(guest),
    guest.notes ? h('p', { class: 'notes' }, guest.notes) : null,
    h('h3', {}, 'Bookings'),
    guest.bookings.length
      ? h(
          'ol',
          { class: 'guest-bookings' },
          ...guest.bookings.map((b) =>
            h(
              'li',
              { class: `state-${b.state}` },
              `${b.dataOra.slice(0, 10)} ${b.dataOra.slice(11, 16)} · ${b.covers} covers · ${STATE_LABELS[b.state] ?? b.state}`,
            ),
          ),
        )
      : h('p', { class: 'hint' }, 'None.'),
    h('form', { method: 'dialog' }, h('button', { type: 'submit', class: 'close' }, 'Close')),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  return dialog;
}
