// GET /prenota#key=<channel key>: party and date, the times the restaurant can seat, an option that holds the
// table while the guest types, the booking, and its confirmation with the manage link (docs/booking-page.md).
import { createApi, fragmentParam } from './api.js';
import { addMinutes, countdown, longDate, timeOf, today } from './format.js';
import { createI18n, errorText, partyText } from './i18n.js';
import { dueText, moneyText } from './payment.js';

/** How long an option holds the table while the guest types (a channel's options: at most 600 s). */
const HOLD_SECONDS = 600;
/** Times shown around a wished time; without one, the whole day's. */
const NEAR_LIMIT = 6;
const DAY_LIMIT = 50;

const $ = (id) => document.getElementById(id);
const key = fragmentParam('key');
const request = createApi(key);
const i18n = createI18n(() => render());
const { t } = i18n;

/** What the guest has chosen so far; `render()` draws it in the current language. */
const state = {
  step: 'search',
  search: null, // { date, covers, around }
  times: [],
  chosen: null, // one offered time
  option: null, // { id, expiresAt (ms) }
  booking: null, // the 201's body
  guarantee: null, // the booking's guarantee, when the restaurant asks one (read with the guest token)
  message: null, // { key } or { error }
};
let ticker = 0;

function show(step) {
  state.step = step;
  $('search').hidden = step === 'details' || step === 'done';
  $('times').hidden = step !== 'times';
  $('details').hidden = step !== 'details';
  $('done').hidden = step !== 'done';
  render();
}

/** A message above the page: a text key, or a refusal worded by `errorText`; `say(null)` clears it. */
function say(messageKey, error = null) {
  state.message = messageKey ? { key: messageKey } : error ? { error } : null;
  renderMessage();
}

function renderMessage() {
  const message = state.message;
  $('message').hidden = !message;
  $('message').textContent = !message ? '' : message.key ? t(message.key) : errorText(t, message.error);
}

function whenText(bookingDate) {
  return `${longDate(bookingDate.slice(0, 10), i18n.get())} ${t('at')} ${timeOf(bookingDate)}`;
}

function render() {
  renderMessage();
  if (state.search) {
    const covers = partyText(t, state.search.covers);
    $('times-title').textContent = t('timesFor', { covers, date: longDate(state.search.date, i18n.get()) });
    $('no-times').textContent = t('noTimes', { covers });
    $('no-times').hidden = state.times.length > 0;
    $('time-list').replaceChildren(...state.times.map(timeButton));
  }
  if (state.chosen) {
    const { chosen } = state;
    $('chosen').textContent = `${whenText(chosen.bookingDate)} · ${partyText(t, state.search.covers)}`;
    if (chosen.shortened) {
      const back = addMinutes(chosen.time, chosen.durationMinutes);
      $('chosen').append(document.createElement('br'), t('shortenedNote', { time: back }));
    }
    renderHold();
  }
  if (state.booking) {
    const b = state.booking;
    $('done-text').textContent = t('bookedText', {
      when: whenText(b.bookingDate),
      covers: partyText(t, b.covers),
    });
    $('done-code').textContent = b.codice;
    const token = (b.gestione ?? b.manage)?.token;
    $('manage').hidden = !token;
    if (token) $('manage-link').href = `/prenota/gestisci#token=${encodeURIComponent(token)}`;
    const g = state.guarantee;
    $('guarantee-due').hidden = !g;
    if (g) {
      const lang = i18n.get();
      $('guarantee-due').textContent = t('guaranteeDue', {
        amount: moneyText(g.importo, g.valuta, lang),
        due: dueText(g.scadenza, lang),
      });
      $('manage-link').textContent = t('giveGuarantee');
    }
  }
}

/** One offered time: "20:00", a shortened one with "until 21:30". */
function timeButton(offered) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = offered.shortened ? 'time shortened' : 'time';
  button.dataset.time = offered.time;
  button.textContent = offered.time;
  if (offered.shortened) {
    const until = document.createElement('small');
    until.textContent = t('until', { time: addMinutes(offered.time, offered.durationMinutes) });
    button.append(until);
  }
  button.addEventListener('click', () => void hold(offered));
  return button;
}

function renderHold() {
  const option = state.option;
  const live = option && option.expiresAt > Date.now();
  $('hold').hidden = !option;
  $('hold').className = live ? 'hold' : 'hold expired';
  if (option)
    $('hold').textContent = live ? t('held', { left: countdown(option.expiresAt) }) : t('holdExpired');
}

/** The refusal every step words the same way: the key withdrawn, or one of the general ones. */
function fail(error) {
  if (error.status === 401) say('keyRefused');
  else say(null, error);
}

async function searchTimes() {
  const { date, covers, around } = state.search;
  const query = new URLSearchParams({ data: date, coperti: String(covers) });
  if (around) query.set('ora', around);
  query.set('limite', String(around ? NEAR_LIMIT : DAY_LIMIT));
  const answer = await request('GET', `/api/disponibilita?${query}`);
  state.times = [...answer.times].sort((a, b) => a.time.localeCompare(b.time));
  show('times');
}

async function onSearch(event) {
  event.preventDefault();
  const covers = Number($('covers').value);
  const date = $('date').value;
  if (!Number.isInteger(covers) || covers < 1 || covers > 50 || !date) return say('invalid');
  say(null);
  state.search = { date, covers, around: $('around').value };
  $('search').setAttribute('aria-busy', 'true');
  try {
    await searchTimes();
  } catch (error) {
    fail(error);
  } finally {
    $('search').removeAttribute('aria-busy');
  }
}

/** Holds the chosen time with an option, then asks for the guest's details. */
async function hold(offered) {
  say(null);
  await releaseOption();
  try {
    const option = await request('POST', '/api/prenotazioni/opzioni', {
      bookingDate: offered.bookingDate,
      covers: state.search.covers,
      autoAssign: true,
      ttl: HOLD_SECONDS,
      ...(offered.shortened ? { durationMinutes: offered.durationMinutes } : {}),
    });
    state.chosen = offered;
    state.option = { id: option.id, expiresAt: Date.parse(option.expiresAt) };
    clearInterval(ticker);
    ticker = setInterval(renderHold, 1000);
    show('details');
    $('name').focus();
  } catch (error) {
    if (error.code === 'NO_TABLE_AVAILABLE') return retake();
    fail(error);
  }
}

/** The time was taken meanwhile: say so and offer the times there are now. */
async function retake() {
  state.chosen = null;
  await releaseOption();
  try {
    await searchTimes();
    say('timeTaken');
  } catch (error) {
    fail(error);
  }
}

async function releaseOption() {
  const option = state.option;
  state.option = null;
  clearInterval(ticker);
  if (!option || option.expiresAt <= Date.now()) return;
  try {
    await request('DELETE', `/api/prenotazioni/opzioni/${encodeURIComponent(option.id)}`);
  } catch {
    // It expires by itself within HOLD_SECONDS.
  }
}

function contact() {
  const trimmed = (id) => $(id).value.trim();
  const details = { customerName: trimmed('name') };
  if (trimmed('phone')) details.customerPhone = trimmed('phone');
  if (trimmed('email')) details.customerEmail = trimmed('email');
  if (trimmed('notes')) details.notes = trimmed('notes');
  return details;
}

async function onBook(event) {
  event.preventDefault();
  const details = contact();
  if (!details.customerName) return say('invalid');
  if (!details.customerPhone && !details.customerEmail) return say('needContact');
  say(null);
  $('book').disabled = true;
  try {
    state.booking = await bookWithOption(details);
    state.option = null;
    clearInterval(ticker);
    show('done');
    void lookForGuarantee(state.booking);
  } catch (error) {
    if (error.code === 'NO_TABLE_AVAILABLE') return void (await retake());
    fail(error);
  } finally {
    $('book').disabled = false;
  }
}

/** How often, and how many times, the confirmation asks whether the restaurant wants a guarantee for the booking. */
const GUARANTEE_LOOKS = { count: 5, everyMs: 800 };

/**
 * The restaurant's policy may ask this booking for a guarantee (docs/payments.md): the service asks Stripe for it
 * within a moment of the booking, and the booking's guest token reads it. Then the confirmation says so, and the
 * manage link is where the guest gives it.
 */
async function lookForGuarantee(booking) {
  const token = (booking.gestione ?? booking.manage)?.token;
  if (!token || booking.state !== 'pending') return;
  const asGuest = createApi(token);
  for (let look = 0; look < GUARANTEE_LOOKS.count; look++) {
    await new Promise((resolve) => setTimeout(resolve, GUARANTEE_LOOKS.everyMs));
    if (state.booking !== booking) return;
    try {
      const read = await asGuest('GET', `/api/prenotazioni/${encodeURIComponent(booking.id)}`);
      if (read.garanzia?.stato === 'requested') {
        state.guarantee = read.garanzia;
        return render();
      }
    } catch {
      return;
    }
  }
}

/** From the option while it holds; once it has expired, the same time by the autoAssign rule. */
async function bookWithOption(details) {
  const option = state.option;
  if (option && option.expiresAt > Date.now()) {
    try {
      return await request('POST', '/api/prenotazioni', { opzioneId: option.id, ...details });
    } catch (error) {
      if (error.code !== 'OPTION_EXPIRED') throw error;
    }
  }
  const { chosen } = state;
  return request('POST', '/api/prenotazioni', {
    autoAssign: true,
    bookingDate: chosen.bookingDate,
    covers: state.search.covers,
    ...(chosen.shortened ? { durationMinutes: chosen.durationMinutes } : {}),
    ...details,
  });
}

function start() {
  $('date').value = today();
  $('date').min = today();
  $('lang').addEventListener('click', () => i18n.toggle());
  $('search').addEventListener('submit', (event) => void onSearch(event));
  $('details').addEventListener('submit', (event) => void onBook(event));
  for (const id of ['phone', 'email']) {
    $(id).addEventListener('input', () => state.message?.key === 'needContact' && say(null));
  }
  $('back').addEventListener('click', () => {
    void releaseOption();
    state.chosen = null;
    show('times');
  });
  $('again').addEventListener('click', () => {
    state.booking = null;
    state.guarantee = null;
    state.chosen = null;
    $('details').reset();
    show('search');
  });
  i18n.apply();
  if (!key) {
    say('noKey');
    for (const el of $('search').elements) el.disabled = true;
  }
}

start();
