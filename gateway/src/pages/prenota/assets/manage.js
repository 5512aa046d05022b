// GET /prenota/gestisci#token=<guest token>: the guest's own booking, to confirm, change (party, date and time,
// notes) or cancel. The token names its booking (its `sub`) and allows nothing else (docs/booking-page.md).
import { createApi, fragmentParam, tokenSubject } from './api.js';
import { dateOf, longDate, timeOf, today } from './format.js';
import { createI18n, errorText, partyText } from './i18n.js';
import { dueText, moneyText, mountPayment, payable } from './payment.js';

/** States in which the guest may still confirm, change or cancel. */
const ACTIVE = new Set(['pending', 'confermata', 'caparra_pagata']);
/** Refusals with words of their own; any other is worded by `errorText`. */
const REFUSALS = {
  UNAUTHENTICATED: 'tokenRefused',
  NOT_FOUND: 'notFound',
  NO_TABLE_AVAILABLE: 'noTableThen',
  TABLE_UNAVAILABLE: 'noTableThen',
  CANCELLATION_WINDOW_CLOSED: 'windowClosed',
  INVALID_TRANSITION: 'badTransition',
};

const $ = (id) => document.getElementById(id);
const token = fragmentParam('token');
const bookingId = tokenSubject(token);
const request = createApi(token);
const i18n = createI18n(() => render());
const { t } = i18n;

const state = { booking: null, message: null }; // message: { key, ok }, { text } or { error }
/** The payment step: the clientSecret its element was mounted for, its `pay()`, and whether Stripe accepted. */
const payment = { mountedFor: null, pay: null, accepted: false };
/** How long the page waits for the service to hear of an accepted payment (Stripe's webhook), asking every 1.5 s. */
const CONFIRMATION_POLLS = 40;
const path = () => `/api/prenotazioni/${encodeURIComponent(bookingId)}`;

function say(message) {
  state.message = message;
  const box = $('message');
  box.hidden = !message;
  box.className = message?.ok ? 'ok' : '';
  box.textContent = !message
    ? ''
    : message.key
      ? t(message.key)
      : (message.text ?? errorText(t, message.error));
}

function fail(error) {
  const key = REFUSALS[error.code] ?? (error.status === 401 ? 'tokenRefused' : null);
  say(key ? { key } : { error });
}

function render() {
  say(state.message);
  const b = state.booking;
  $('booking').hidden = !b;
  if (!b) return;
  const date = dateOf(b.bookingDate);
  $('b-when').textContent = `${longDate(date, i18n.get())} ${t('at')} ${timeOf(b.bookingDate)}`;
  $('b-covers').textContent = partyText(t, b.covers);
  $('b-name').textContent = b.customerName;
  $('b-code').textContent = b.codice;
  $('b-state').textContent = t(`state_${b.state}`);
  $('b-state').dataset.state = b.state;
  $('b-notes').textContent = b.notes ?? '';
  $('b-notes').hidden = $('b-notes-label').hidden = !b.notes;
  const active = ACTIVE.has(b.state);
  $('actions').hidden = !active || !$('cancel-ask').hidden || !$('edit').hidden;
  $('confirm').hidden = b.state !== 'pending';
  if (!active) $('cancel-ask').hidden = $('edit').hidden = true;
  renderPayment(b);
}

/** A guarantee asked for and not yet given, on a booking that still waits for it. */
const guaranteeDue = (b) => ['pending', 'confermata'].includes(b.state) && b.garanzia?.stato === 'requested';

function renderPayment(b) {
  $('pay').hidden = !guaranteeDue(b);
  if ($('pay').hidden) return;
  const g = b.garanzia;
  const kind = g.modo === 'deposit' ? 'deposit' : 'card';
  const lang = i18n.get();
  $('pay-text').textContent = t(`payText_${kind}`, {
    amount: moneyText(g.importo, g.valuta, lang),
    due: dueText(g.scadenza, lang),
  });
  $('pay-submit').textContent = t(`payNow_${kind}`);
  $('pay-submit').hidden = !payment.pay || payment.accepted;
}

/** Mounts Stripe's Payment Element when the booking's guarantee is due (once per clientSecret). */
async function preparePayment() {
  const b = state.booking;
  if (!b || !guaranteeDue(b)) return;
  if (!payable(b.garanzia)) return say({ key: 'payUnavailable' });
  if (payment.mountedFor === b.garanzia.clientSecret) return;
  payment.mountedFor = b.garanzia.clientSecret;
  say({ key: 'payLoading' });
  try {
    payment.pay = await mountPayment($('pay-element'), b.garanzia, i18n.get());
    say(null);
  } catch {
    payment.mountedFor = null;
    say({ key: 'payUnavailable' });
  }
  render();
}

/** Confirms the payment with Stripe, then waits until the service has it (the booking leaves `pending`). */
async function onPay() {
  $('pay-submit').disabled = true;
  say({ key: 'paying' });
  let refusal;
  try {
    refusal = await payment.pay();
  } catch {
    refusal = t('payUnavailable');
  }
  $('pay-submit').disabled = false;
  if (refusal) return say({ text: refusal });
  payment.accepted = true;
  say({ key: 'payWaiting', ok: true });
  render();
  for (let poll = 0; poll < CONFIRMATION_POLLS; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    try {
      state.booking = await request('GET', path());
    } catch {
      continue;
    }
    if (state.booking.garanzia?.stato !== 'requested') {
      state.message = state.booking.state === 'caparra_pagata' ? { key: 'paid', ok: true } : null;
      return render();
    }
  }
}

/** Runs one call that answers the booking, then shows it with `doneKey` (or the refusal). */
async function act(call, doneKey) {
  for (const button of document.querySelectorAll('button')) button.disabled = true;
  try {
    state.booking = await call();
    $('edit').hidden = $('cancel-ask').hidden = true;
    state.message = doneKey ? { key: doneKey, ok: true } : null;
  } catch (error) {
    fail(error);
  } finally {
    for (const button of document.querySelectorAll('button')) button.disabled = false;
    render();
  }
}

function openEdit() {
  const b = state.booking;
  $('e-covers').value = String(b.covers);
  $('e-date').value = dateOf(b.bookingDate);
  $('e-date').min = today();
  $('e-time').value = timeOf(b.bookingDate);
  $('e-notes').value = b.notes ?? '';
  $('edit').hidden = false;
  say(null);
  render();
  $('e-covers').focus();
}

/** PATCH of what changed: party, date and time, notes (the service places it again or leaves it unchanged). */
function onSave(event) {
  event.preventDefault();
  const b = state.booking;
  const covers = Number($('e-covers').value);
  const date = $('e-date').value;
  const time = $('e-time').value;
  if (!Number.isInteger(covers) || covers < 1 || covers > 50 || !date || !time) {
    return say({ key: 'invalid' });
  }
  const patch = {};
  if (covers !== b.covers) patch.covers = covers;
  if (`${date}T${time}` !== b.bookingDate.slice(0, 16)) patch.bookingDate = `${date}T${time}`;
  if ($('e-notes').value.trim() !== (b.notes ?? '')) patch.notes = $('e-notes').value.trim();
  if (Object.keys(patch).length === 0) {
    $('edit').hidden = true;
    return render();
  }
  void act(() => request('PATCH', path(), patch), 'changed');
}

function start() {
  $('lang').addEventListener('click', () => i18n.toggle());
  $('confirm').addEventListener(
    'click',
    () => void act(() => request('POST', `${path()}/conferma`), 'confirmed'),
  );
  $('change').addEventListener('click', openEdit);
  $('cancel').addEventListener('click', () => {
    $('cancel-ask').hidden = false;
    render();
  });
  $('cancel-no').addEventListener('click', () => {
    $('cancel-ask').hidden = true;
    render();
  });
  $('cancel-yes').addEventListener(
    'click',
    () => void act(() => request('POST', `${path()}/annulla`, {}), 'cancelled'),
  );
  $('e-back').addEventListener('click', () => {
    $('edit').hidden = true;
    render();
  });
  $('edit').addEventListener('submit', onSave);
  $('pay-submit').addEventListener('click', () => void onPay());
  i18n.apply();
  if (!bookingId) return say({ key: 'noToken' });
  void act(() => request('GET', path()), null).then(() => {
    followLink();
    void preparePayment();
  });
}

/**
 * A reminder's links open this page on a step (`#token=…&azione=conferma|annulla`, docs/reminders.md): confirming
 * a booking still to be confirmed is done at once (it changes nothing a guest would regret); cancelling only opens
 * the question, so that a link opened by mistake, or by a mail scanner running scripts, cancels nothing.
 */
function followLink() {
  const b = state.booking;
  if (!b || !ACTIVE.has(b.state)) return;
  const step = fragmentParam('azione');
  if (step === 'conferma' && b.state === 'pending') {
    void act(() => request('POST', `${path()}/conferma`), 'confirmed');
  } else if (step === 'annulla') {
    $('cancel-ask').hidden = false;
    render();
    $('cancel-no').focus();
  }
}

start();
