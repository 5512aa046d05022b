// The side panel of the selected table: what it is, and what a waiter (or an administrator) can do with it.
import { autoBadge, isAutoAssigned } from './auto-assigned.js';
import { h } from './dom.js';
import { bookingTime, STATUS_LABELS, STATUSES, timeLeft, upcomingBookings } from './model.js';

/**
 * Fills `panel` for `view.selected` ({ table, geometry }) or shows a hint. `actions`: setStatus(status),
 * lock(), unlock(), setOperator(name), editGeometry(patch).
 */
export function renderPanel(panel, view, actions) {
  if (!view.selected) {
    panel.replaceChildren(
      h(
        'p',
        { class: 'hint' },
        view.editing ? 'Select a table to move, resize or rotate it.' : 'Select a table.',
      ),
    );
    return;
  }
  const { table, geometry } = view.selected;
  const lock = table.lock && timeLeft(table.lock.expiresAt) ? table.lock : null;
  const mine = lock && lock.deviceId === view.deviceId;
  const upcoming = upcomingBookings(view.bookings, table.id, view.at).slice(0, 3);
  const statusButtons = STATUSES.map((status) =>
    h(
      'button',
      {
        type: 'button',
        class: `status-button status-${status}`,
        'aria-pressed': table.status === status,
        'data-status': status,
        onclick: () => actions.setStatus(status),
      },
      STATUS_LABELS[status],
    ),
  );
  panel.replaceChildren(
    h('h2', {}, `Table ${table.name}`),
    h(
      'p',
      { class: 'facts' },
      `${STATUS_LABELS[table.status]} · ${table.seats} seats${table.attivo ? '' : ' · inactive'}`,
    ),
    h(
      'p',
      { class: 'lock-info' },
      lock
        ? `Locked by ${lock.operatorName || lock.deviceId}${mine ? ' (this device)' : ''} · ${timeLeft(lock.expiresAt)} left`
        : 'Not locked',
    ),
    h('h3', {}, view.at ? `Bookings from ${view.at.slice(11)}` : 'Next bookings'),
    upcoming.length
      ? h(
          'ul',
          { class: 'bookings' },
          ...upcoming.map((b) =>
            h(
              'li',
              {},
              `${bookingTime(b)} · ${b.customerName} · ${b.covers} covers`,
              b.combinationId ? ` · ${view.combinationName?.(b.combinationId) ?? 'combination'}` : null,
              isAutoAssigned(b) ? autoBadge() : null,
              ...(view.hostFacts?.(b.id) ?? []),
            ),
          ),
        )
      : h('p', { class: 'hint' }, view.at ? 'None then.' : 'None today.'),
    h('h3', {}, 'Status'),
    h('div', { class: 'status-buttons' }, ...statusButtons),
    h('h3', {}, 'Lock'),
    h(
      'label',
      { class: 'field' },
      'Operator ',
      h('input', {
        type: 'text',
        name: 'operator',
        value: view.operatorName,
        maxlength: 200,
        autocomplete: 'name',
        onchange: (e) => actions.setOperator(e.target.value),
      }),
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', class: 'lock-button', onclick: () => actions.lock() },
        mine ? 'Renew lock' : 'Take lock',
      ),
      h(
        'button',
        { type: 'button', class: 'unlock-button', onclick: () => actions.unlock(), disabled: !mine },
        'Release',
      ),
    ),
    ...(view.editing ? [geometryFields(geometry, actions)] : []),
  );
}

function geometryFields(geometry, actions) {
  const number = (name, label, value, attributes) =>
    h(
      'label',
      { class: 'field' },
      `${label} `,
      h('input', {
        type: 'number',
        name,
        value: Math.round(value * 10) / 10,
        ...attributes,
        onchange: (e) => {
          const parsed = Number(e.target.value);
          if (e.target.value !== '' && Number.isFinite(parsed)) actions.editGeometry({ [name]: parsed });
        },
      }),
    );
  return h(
    'fieldset',
    { class: 'geometry' },
    h('legend', {}, 'Layout'),
    number('width', 'Width', geometry.width, { min: 10, step: 5 }),
    number('height', 'Height', geometry.height, { min: 10, step: 5 }),
    number('rotation', 'Rotation °', geometry.rotation, { min: 0, max: 359, step: 15 }),
    h(
      'label',
      { class: 'field' },
      'Shape ',
      h(
        'select',
        { name: 'shape', onchange: (e) => actions.editGeometry({ shape: e.target.value }) },
        h('option', { value: 'rect', selected: geometry.shape === 'rect' }, 'Rectangle'),
        h('option', { value: 'round', selected: geometry.shape === 'round' }, 'Round'),
      ),
    ),
    h('p', { class: 'hint' }, 'Drag to move; arrow keys move the selected table (Shift: finer).'),
  );
}
