// The administrator's report view: a date range and a room, the period's totals and four charts (covers by hour,
// no-show rate by weekday, actual against configured turn times, revenue per available seat-hour) from
// GET /api/report. Chart.js (its UMD build, served by the gateway) is loaded the first time the view opens.
import { h } from './dom.js';
import { coversByHour, noShowByWeekday, revPashByService, totalsSummary, turnTimes } from './report-model.js';

const CHART_SRC = '/floor-plan/vendor/chart.js';
/** Axes counted in whole numbers. */
const WHOLE_UNITS = new Set(['covers', 'minutes']);
const COLOURS = { primary: '#2f6fdf', secondary: '#9aa7b8', alert: '#d9534f', ok: '#2e9d5b' };

let chartLoading;
/** Chart.js, loaded once (a plain script: it defines the global `Chart`). */
function loadChart() {
  chartLoading ??= new Promise((resolve, reject) => {
    const script = h('script', { src: CHART_SRC });
    script.addEventListener('load', () => resolve(globalThis.Chart));
    script.addEventListener('error', () => reject(new Error('The chart library could not be loaded')));
    document.head.append(script);
  });
  return chartLoading;
}

/** `YYYY-MM-DD` of a Date in the browser's time zone. */
const localDate = (date) => date.toLocaleDateString('sv-SE');

/**
 * Mounts the view in `root`, shown in place of the plan while `toggle` (the header's button) is pressed. `api()`
 * is the page's client, `rooms()` the tenant's rooms. Returns { show(on) }: the first show reads the last 28 days.
 */
export function mountReport({ root, toggle, api, rooms }) {
  const today = new Date();
  const from = h('input', {
    type: 'date',
    name: 'from',
    required: true,
    value: localDate(new Date(today - 27 * 864e5)),
  });
  const to = h('input', { type: 'date', name: 'to', required: true, value: localDate(today) });
  const room = h('select', { name: 'room' });
  const status = h('p', { class: 'report-status', role: 'status' });
  const totals = h('dl', { class: 'report-totals' });
  const canvases = {
    covers: chartFigure('covers', 'Covers by hour'),
    noShows: chartFigure('no-shows', 'No-show rate by weekday'),
    turns: chartFigure('turns', 'Turn times by party size: actual (median) and configured'),
    revPash: chartFigure('revpash', 'Revenue per available seat-hour, by service'),
  };
  const charts = new Map();
  root.replaceChildren(
    h('h2', {}, 'Report'),
    h(
      'form',
      { class: 'report-range', onsubmit: (event) => (event.preventDefault(), void load()) },
      h('label', { class: 'field' }, 'From ', from),
      h('label', { class: 'field' }, 'To ', to),
      h('label', { class: 'field' }, 'Room ', room),
      h('button', { type: 'submit' }, 'Show'),
    ),
    status,
    totals,
    h('div', { class: 'charts' }, ...Object.values(canvases).map((c) => c.figure)),
  );

  async function load() {
    status.textContent = 'Reading…';
    status.dataset.kind = '';
    try {
      const [Chart, report] = await Promise.all([
        loadChart(),
        api().report(from.value, to.value, room.value),
      ]);
      draw(Chart, report);
      const services = (report.services ?? report.servizi ?? []).length;
      status.textContent = `${from.value} to ${to.value}: ${services} service${services === 1 ? '' : 's'}`;
    } catch (error) {
      status.textContent = error.message;
      status.dataset.kind = 'error';
    }
  }

  function draw(Chart, report) {
    totals.replaceChildren(
      ...totalsSummary(report).map(([label, value]) => h('div', {}, h('dt', {}, label), h('dd', {}, value))),
    );
    const hours = coversByHour(report);
    const weekdays = noShowByWeekday(report);
    const turns = turnTimes(report);
    const revPash = revPashByService(report);
    chart(Chart, 'covers', 'bar', hours.labels, 'covers', [
      { label: 'Covers', data: hours.covers, backgroundColor: COLOURS.primary },
    ]);
    chart(Chart, 'noShows', 'bar', weekdays.labels, '%', [
      { label: 'No-show rate (%)', data: weekdays.rates, backgroundColor: COLOURS.alert },
    ]);
    chart(Chart, 'turns', 'bar', turns.labels, 'minutes', [
      { label: 'Actual (median)', data: turns.actual, backgroundColor: COLOURS.primary },
      { label: 'Configured', data: turns.configured, backgroundColor: COLOURS.secondary },
    ]);
    chart(Chart, 'revPash', 'line', revPash.labels, 'revenue per seat-hour', [
      { label: 'RevPASH', data: revPash.values, borderColor: COLOURS.ok, backgroundColor: COLOURS.ok },
    ]);
  }

  function chart(Chart, key, type, labels, unit, datasets) {
    charts.get(key)?.destroy();
    const { canvas } = canvases[key];
    charts.set(
      key,
      new Chart(canvas, {
        type,
        data: { labels, datasets },
        options: {
          animation: false,
          maintainAspectRatio: false,
          scales: {
            y: {
              beginAtZero: true,
              // Covers and minutes are whole numbers: no 0.5 ticks on a small day.
              ticks: WHOLE_UNITS.has(unit) ? { precision: 0 } : {},
              title: { display: true, text: unit },
            },
          },
          plugins: { legend: { display: datasets.length > 1 } },
        },
      }),
    );
  }

  function show(on) {
    document.body.classList.toggle('reporting', on);
    root.hidden = !on;
    toggle.setAttribute('aria-pressed', String(on));
    toggle.textContent = on ? 'Floor plan' : 'Report';
    if (!on) return;
    const selected = room.value;
    room.replaceChildren(
      h('option', { value: '' }, 'All rooms'),
      ...rooms().map((r) => h('option', { value: r.id, selected: r.id === selected }, r.name)),
    );
    if (!status.textContent) void load();
  }

  toggle.addEventListener('click', () => show(root.hidden));
  return { show };
}

function chartFigure(name, caption) {
  const canvas = h('canvas', { id: `chart-${name}`, role: 'img', 'aria-label': caption });
  const figure = h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, caption),
    h('div', { class: 'chart-box' }, canvas),
  );
  return { figure, canvas };
}
