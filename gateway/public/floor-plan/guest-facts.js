// What the host sees beside a booking or a waiting party: the guest's tags, allergies (marked), visits and
// no-shows with a way to their history, and the booking's guarantee with its due time. The summaries are pure
// (unit-tested); the builders make the DOM the table panel and the waitlist show.
import { h } from './dom.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** A guest's counts as the host reads them: `11 visits · 2 no-shows` (`first visit` for a new guest). */
export function guestCounts(guest) {
  const parts = [guest.visits ? plural(guest.visits, 'visit', 'visits') : 'first visit'];
  if (guest.noShows) parts.push(plural(guest.noShows, 'no-show', 'no-shows'));
  if (guest.lateCancellations)
    parts.push(plural(guest.lateCancellations, 'late cancellation', 'late cancellations'));
  return parts.join(' · ');
}

/** Minor units in `currency` as the browser writes money (`€60.00`); the currency's own decimals. */
export function money(amount, currency, locale) {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  return format.format(amount / 10 ** format.resolvedOptions().maximumFractionDigits);
}

/** `HH:MM` of an instant in `timeZone` (the browser's when undefined). */
export function clockTime(iso, timeZone) {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(new Date(iso));
}

const SETTLED = { released: 'released', refunded: 'refunded', charged: 'charged' };

/**
 * A guarantee as one line and a tone: `due` (waiting for the guest: the due time, `overdue` once passed), `ok`
 * (held or paid), `alert` (failed, or stuck money staff must refund), `done` (settled).
 */
export function guaranteeSummary(guarantee, now, { timeZone, locale } = {}) {
  const kind = guarantee.type === 'deposit' ? 'Deposit' : 'Card';
  const amount = money(guarantee.amount, guarantee.currency, locale);
  switch (guarantee.status) {
    case 'requested': {
      const overdue = Date.parse(guarantee.dueAt) <= now;
      return {
        tone: 'due',
        text: `${kind} ${amount} requested · ${overdue ? 'overdue since' : 'due'} ${clockTime(guarantee.dueAt, timeZone)}`,
      };
    }
    case 'authorized':
      return { tone: 'ok', text: `${kind} ${amount} held` };
    case 'paid':
      return { tone: 'ok', text: `${kind} ${amount} paid` };
    case 'failed':
      return { tone: 'alert', text: `${kind} ${amount} failed` };
    case 'stuck':
      return { tone: 'alert', text: `${kind} ${amount} stuck: refund it` };
    default:
      return { tone: 'done', text: `${kind} ${amount} ${SETTLED[guarantee.status] ?? guarantee.status}` };
  }
}

/** The guest's facts: tags, allergies (marked), counts, and a History button when `onHistory(guest)` is given. */
export function guestFacts(guest, onHistory) {
  return h(
    'div',
    { class: 'guest-facts', 'data-guest': guest.id },
    ...guest.tags.map((tag) => h('span', { class: 'guest-tag' }, tag)),
    guest.allergies.length
      ? h(
          'span',
          { class: 'allergies', role: 'note', title: 'Allergies' },
          h('span', { 'aria-hidden': 'true' }, '⚠ '),
          `Allergies: ${guest.allergies.join(', ')}`,
        )
      : null,
    h('span', { class: `guest-counts${guest.noShows ? ' has-no-shows' : ''}` }, guestCounts(guest)),
    onHistory
      ? h('button', { type: 'button', class: 'guest-history', onclick: () => onHistory(guest) }, 'History')
      : null,
  );
}

/** The booking's guarantee as a badge coloured by its tone. */
export function guaranteeBadge(guarantee, now) {
  const { tone, text } = guaranteeSummary(guarantee, now);
  return h('span', { class: `guarantee tone-${tone}`, 'data-status': guarantee.status }, text);
}
