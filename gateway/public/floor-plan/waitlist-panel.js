// The host stand beside the floor plan: today's waitlist. Add a party, see each party's wait counting down,
// notify it, seat it on the suggested table or on a table clicked on the plan, mark it left. Live: the page's
// waitlistChanged subscription calls refresh(), table changes call tablesChanged() (the estimates move).
import { h } from './dom.js';

/** The estimates are read again this often even without events (they depend on the clock). */
const REFRESH_MS = 60_000;
/** Table changes arrive in bursts (seating sets several tables): one refresh after them. */
const TABLES_SETTLE_MS = 400;

/** The wait left before `until` (epoch ms) at `now`: `m:ss`, or `table ready` once it is reached. */
export function waitLeft(until, now) {
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds <= 0) return 'table ready';
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whole minutes since an ISO instant. */
const minutesSince = (iso, now) => Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));

/**
 * Mounts the waitlist in `root`. `api.request(method, path, body)` is the page's REST client; `tableName(id)`
 * names a table of the room on screen (undefined for others); `notify(message, kind)` shows a message;
 * `onPicking(active)` tells the page that a click on a table now seats a party; `guests` ({ refresh(),
 * forEntry(id) }, host-view.js) reads each party's guest alongside the queue and shows it. Returns { refresh,
 * tablesChanged, tableClicked(id) (true when the click seated a party), stop }.
 */
export function mountWaitlist({ root, api, tableName, notify, onPicking, guests }) {
  const state = { entries: [], fetchedAt: 0, picking: null, stopped: false };
  const list = h('ol', { class: 'parties', 'aria-label': 'Waiting parties' });
  const picking = h('p', { class: 'picking', role: 'status', hidden: true });
  const name = h('input', { name: 'customerName', placeholder: 'Name', required: true, maxlength: 200 });
  const covers = h('input', {
    name: 'covers',
    type: 'number',
    min: 1,
    max: 1000,
    value: 2,
    required: true,
    'aria-label': 'Covers',
  });
  const phone = h('input', { name: 'customerPhone', placeholder: 'Phone (optional)', maxlength: 50 });
  const form = h(
    'form',
    { class: 'add-party', onsubmit: (event) => void add(event) },
    name,
    covers,
    phone,
    h('button', { type: 'submit' }, 'Add party'),
  );
  root.replaceChildren(h('h2', {}, 'Waitlist'), form, picking, list);

  async function add(event) {
    event.preventDefault();
    const body = { customerName: name.value.trim(), covers: Number(covers.value) };
    if (phone.value.trim()) body.customerPhone = phone.value.trim();
    await act(async () => {
      const entry = await api.request('POST', '/api/attesa', body);
      name.value = '';
      phone.value = '';
      notify(`${entry.customerName} added: about ${describeMinutes(entry.quotedMinutes)}`, 'ok');
    });
  }

  async function refresh() {
    try {
      const [entries] = await Promise.all([api.request('GET', '/api/attesa'), guests.refresh()]);
      if (state.stopped) return;
      state.entries = entries;
      state.fetchedAt = Date.now();
      if (state.picking && !entries.some((e) => e.id === state.picking)) setPicking(null);
      render();
    } catch (error) {
      notify(`Waitlist: ${error.message}`);
    }
  }

  let settle;
  function tablesChanged() {
    clearTimeout(settle);
    settle = setTimeout(() => void refresh(), TABLES_SETTLE_MS);
  }

  async function act(work) {
    try {
      await work();
    } catch (error) {
      notify(error.message);
    }
    await refresh();
  }

  const seat = (entry, choice) =>
    act(async () => {
      const seated = await api.request('POST', `/api/attesa/${entry.id}/siedi`, choice);
      const names = seated.tableIds.map((id) => tableName(id) ?? 'a table').join(' + ');
      notify(`${seated.customerName} seated at ${names}`, 'ok');
    });

  function setPicking(id) {
    state.picking = id;
    const entry = state.entries.find((e) => e.id === id);
    picking.hidden = !entry;
    picking.replaceChildren(
      ...(entry
        ? [
            `Click a table on the plan to seat ${entry.customerName} (${entry.covers}). `,
            h('button', { type: 'button', onclick: () => (setPicking(null), render()) }, 'Cancel'),
          ]
        : []),
    );
    onPicking(Boolean(entry));
  }

  function tableClicked(tableId) {
    const entry = state.entries.find((e) => e.id === state.picking);
    if (!entry) return false;
    setPicking(null);
    void seat(entry, { tableIds: [tableId] });
    return true;
  }

  function suggestion(entry) {
    if (entry.estimatedMinutes !== 0 || entry.suggestedTableIds.length === 0) return null;
    const names = entry.suggestedTableIds.map((id) => tableName(id) ?? 'a table in another room');
    const choice = entry.suggestedCombinationId
      ? { combinationId: entry.suggestedCombinationId }
      : { tableIds: entry.suggestedTableIds };
    return { label: names.join(' + '), choice };
  }

  function render() {
    const now = Date.now();
    list.replaceChildren(
      ...state.entries.map((entry) => {
        const suggested = suggestion(entry);
        const until =
          entry.estimatedMinutes === null ? null : state.fetchedAt + entry.estimatedMinutes * 60_000;
        return h(
          'li',
          { class: `party state-${entry.state}`, 'data-id': entry.id, 'data-state': entry.state },
          h(
            'div',
            { class: 'who' },
            h('strong', {}, entry.customerName),
            ` · ${entry.covers} cover${entry.covers === 1 ? '' : 's'} · `,
            until === null
              ? h('span', { class: 'wait none' }, 'no table fits')
              : h('span', { class: 'wait', 'data-until': until }, waitLeft(until, now)),
          ),
          h(
            'div',
            { class: 'meta' },
            `#${entry.position} · quoted ${describeMinutes(entry.quotedMinutes)} · waiting ${minutesSince(entry.createdAt, now)} min`,
            entry.state === 'notified' ? ' · notified' : '',
            entry.customerPhone ? ` · ${entry.customerPhone}` : '',
          ),
          ...guests.forEntry(entry.id),
          h(
            'div',
            { class: 'row actions' },
            h(
              'button',
              {
                type: 'button',
                class: 'seat-suggested',
                disabled: !suggested,
                onclick: () => suggested && void seat(entry, suggested.choice),
              },
              suggested ? `Seat at ${suggested.label}` : 'Seat (none free)',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'pick-table',
                'aria-pressed': state.picking === entry.id,
                onclick: () => (setPicking(state.picking === entry.id ? null : entry.id), render()),
              },
              'Choose table',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'notify',
                disabled: entry.state !== 'waiting',
                onclick: () =>
                  act(async () => {
                    await api.request('POST', `/api/attesa/${entry.id}/avvisa`);
                    notify(`${entry.customerName} notified`, 'ok');
                  }),
              },
              'Notify',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'left',
                onclick: () =>
                  act(() => api.request('POST', `/api/attesa/${entry.id}/annulla`, { state: 'left' })),
              },
              'Left',
            ),
          ),
        );
      }),
    );
    if (state.entries.length === 0) list.append(h('li', { class: 'hint' }, 'Nobody is waiting.'));
  }

  /** Counts every party's wait down, once a second, without reading the list again. */
  function tick() {
    const now = Date.now();
    for (const node of list.querySelectorAll('.wait[data-until]')) {
      node.textContent = waitLeft(Number(node.dataset.until), now);
    }
  }

  const timers = [setInterval(tick, 1000), setInterval(() => void refresh(), REFRESH_MS)];
  void refresh();
  return {
    refresh,
    tablesChanged,
    tableClicked,
    stop() {
      state.stopped = true;
      clearTimeout(settle);
      for (const timer of timers) clearInterval(timer);
      onPicking(false);
      root.replaceChildren();
    },
  };
}

function describeMinutes(minutes) {
  if (minutes === null || minutes === undefined) return 'no table fits';
  return minutes === 0 ? 'no wait' : `${minutes} min`;
}
