// Italian and English: the browser's language picks one, the switch in the header changes it (kept per browser).

const STORAGE_KEY = 'coperto.prenota.lang';
export const LANGUAGES = ['it', 'en'];

const TEXTS = {
  it: {
    switchTo: 'English',
    bookTitle: 'Prenota un tavolo',
    manageTitle: 'La tua prenotazione',
    party: 'Persone',
    date: 'Data',
    around: 'Verso le (facoltativo)',
    findTimes: 'Cerca orari',
    searching: 'Cerco gli orari…',
    timesFor: 'Orari per {covers} il {date}',
    noTimes: 'Nessun orario libero per {covers} in questa data: prova un altro giorno.',
    until: 'fino alle {time}',
    shortenedNote: 'Il tavolo serve di nuovo alle {time}.',
    people: '{n} persone',
    person: '1 persona',
    held: 'Tavolo tenuto per te: restano {left} minuti.',
    holdExpired: 'Il tavolo non è più riservato: prenota comunque, se è ancora libero lo avrai.',
    yourDetails: 'I tuoi dati',
    name: 'Nome',
    phone: 'Telefono',
    email: 'Email',
    contactHint: 'Telefono o email: almeno uno, per avvisarti.',
    notes: 'Note (facoltative)',
    book: 'Prenota',
    back: 'Indietro',
    booking: 'Prenoto…',
    needContact: 'Scrivi un telefono o un’email.',
    bookedTitle: 'Prenotazione fatta',
    bookedText: 'Ti aspettiamo {when}, {covers}.',
    code: 'Codice',
    manageLink: 'Gestisci la prenotazione',
    manageHint: 'Conserva questo link: serve per confermare, cambiare o annullare.',
    bookAnother: 'Nuova prenotazione',
    timeTaken: 'Quell’orario è appena stato preso: eccone altri.',
    noKey: 'Questa pagina di prenotazione non è configurata (manca la chiave del canale).',
    keyRefused: 'Questa pagina di prenotazione non è più attiva.',
    network: 'Il servizio non risponde: riprova tra poco.',
    tooMany: 'Troppe richieste: riprova tra qualche secondo.',
    invalid: 'Controlla i dati inseriti.',
    failed: 'Qualcosa non ha funzionato: riprova.',
    at: 'alle',
    state: 'Stato',
    state_pending: 'Da confermare',
    state_confermata: 'Confermata',
    state_caparra_pagata: 'Confermata (garanzia data)',
    state_annullata: 'Annullata',
    state_completata: 'Conclusa',
    state_no_show: 'Non presentato',
    when: 'Quando',
    who: 'A nome di',
    confirm: 'Conferma',
    change: 'Modifica',
    cancel: 'Annulla la prenotazione',
    cancelAsk: 'Annullare davvero la prenotazione?',
    cancelYes: 'Sì, annulla',
    cancelNo: 'No',
    save: 'Salva le modifiche',
    time: 'Ora',
    confirmed: 'Prenotazione confermata.',
    changed: 'Prenotazione modificata.',
    cancelled: 'Prenotazione annullata.',
    noTableThen: 'Non c’è posto per quella modifica: la prenotazione resta com’era.',
    windowClosed: 'Ormai è tardi per cambiarla o annullarla online: chiama il ristorante.',
    badTransition: 'La prenotazione non si può più cambiare.',
    noToken: 'Link non valido: apri il link ricevuto con la prenotazione.',
    tokenRefused: 'Questo link non è più valido.',
    notFound: 'Prenotazione non trovata.',
    guaranteeDue:
      'Per tenere la prenotazione il ristorante chiede una garanzia di {amount} entro il {due}: dalla al link qui sotto.',
    giveGuarantee: 'Dai la garanzia',
    payTitle: 'Garanzia richiesta',
    payText_deposit: 'Per tenere la prenotazione serve una caparra di {amount}, da versare entro il {due}.',
    payText_card:
      'Per tenere la prenotazione serve una carta a garanzia entro il {due}: fino a {amount}, addebitati solo secondo le condizioni di cancellazione.',
    payNow_deposit: 'Versa la caparra',
    payNow_card: 'Lascia la carta a garanzia',
    payLoading: 'Carico il modulo di pagamento…',
    payUnavailable: 'Il pagamento online non è disponibile ora: riprova più tardi o chiama il ristorante.',
    paying: 'Pagamento in corso…',
    payWaiting: 'Pagamento accettato: attendiamo la conferma…',
    paid: 'Garanzia ricevuta: la prenotazione è confermata.',
  },
  en: {
    switchTo: 'Italiano',
    bookTitle: 'Book a table',
    manageTitle: 'Your booking',
    party: 'Guests',
    date: 'Date',
    around: 'Around (optional)',
    findTimes: 'Find times',
    searching: 'Looking for times…',
    timesFor: 'Times for {covers} on {date}',
    noTimes: 'No time left for {covers} on this day: try another day.',
    until: 'until {time}',
    shortenedNote: 'The table is needed again at {time}.',
    people: '{n} people',
    person: '1 person',
    held: 'Table held for you: {left} minutes left.',
    holdExpired: 'The table is no longer held: book anyway, you get it if it is still free.',
    yourDetails: 'Your details',
    name: 'Name',
    phone: 'Phone',
    email: 'Email',
    contactHint: 'Phone or email: at least one, so that we can reach you.',
    notes: 'Notes (optional)',
    book: 'Book',
    back: 'Back',
    booking: 'Booking…',
    needContact: 'Give a phone number or an email.',
    bookedTitle: 'You are booked',
    bookedText: 'We expect you {when}, {covers}.',
    code: 'Code',
    manageLink: 'Manage your booking',
    manageHint: 'Keep this link: it confirms, changes or cancels the booking.',
    bookAnother: 'New booking',
    timeTaken: 'That time was just taken: here are others.',
    noKey: 'This booking page is not set up (the channel key is missing).',
    keyRefused: 'This booking page is no longer active.',
    network: 'The service does not answer: try again shortly.',
    tooMany: 'Too many requests: try again in a few seconds.',
    invalid: 'Please check what you entered.',
    failed: 'Something went wrong: please try again.',
    at: 'at',
    state: 'Status',
    state_pending: 'To be confirmed',
    state_confermata: 'Confirmed',
    state_caparra_pagata: 'Confirmed (guarantee given)',
    state_annullata: 'Cancelled',
    state_completata: 'Completed',
    state_no_show: 'No-show',
    when: 'When',
    who: 'Name',
    confirm: 'Confirm',
    change: 'Change',
    cancel: 'Cancel the booking',
    cancelAsk: 'Really cancel the booking?',
    cancelYes: 'Yes, cancel',
    cancelNo: 'No',
    save: 'Save changes',
    time: 'Time',
    confirmed: 'Booking confirmed.',
    changed: 'Booking changed.',
    cancelled: 'Booking cancelled.',
    noTableThen: 'There is no room for that change: the booking stays as it was.',
    windowClosed: 'It is too late to change or cancel online: please call the restaurant.',
    badTransition: 'The booking can no longer be changed.',
    noToken: 'Invalid link: open the link you received with the booking.',
    tokenRefused: 'This link is no longer valid.',
    notFound: 'Booking not found.',
    guaranteeDue:
      'To hold the booking, the restaurant asks for a guarantee of {amount} by {due}: give it at the link below.',
    giveGuarantee: 'Give the guarantee',
    payTitle: 'Guarantee needed',
    payText_deposit: 'To hold the booking, a deposit of {amount} is needed by {due}.',
    payText_card:
      'To hold the booking, a card is needed as a guarantee by {due}: up to {amount}, charged only under the cancellation terms.',
    payNow_deposit: 'Pay the deposit',
    payNow_card: 'Give the card as a guarantee',
    payLoading: 'Loading the payment form…',
    payUnavailable: 'Online payment is not available now: try again later or call the restaurant.',
    paying: 'Paying…',
    payWaiting: 'Payment accepted: waiting for the confirmation…',
    paid: 'Guarantee received: the booking is confirmed.',
  },
};

/** The stored choice, else the first of the browser's languages that is Italian or English, else English. */
export function initialLanguage(stored, browserLanguages) {
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of browserLanguages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

/** The page's language: `get()`, `t(key, vars)`, `toggle()`; `onChange` re-renders what the page drew. */
export function createI18n(onChange) {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the browser's language only.
  }
  let lang = initialLanguage(
    stored,
    navigator.languages?.length ? navigator.languages : [navigator.language],
  );
  const t = (key, vars = {}) =>
    (TEXTS[lang][key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
  const apply = () => {
    document.documentElement.lang = lang;
    for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    document.title = `${t(document.body.dataset.title)} · Coperto`;
    onChange();
  };
  return {
    get: () => lang,
    t,
    apply,
    toggle() {
      lang = lang === 'it' ? 'en' : 'it';
      try {
        localStorage.setItem(STORAGE_KEY, lang);
      } catch {
        // Not kept: this page view only.
      }
      apply();
    },
  };
}

/** "1 persona" / "4 persone". */
export function partyText(t, covers) {
  return covers === 1 ? t('person') : t('people', { n: covers });
}

/** The words for a refusal no step handles itself (network, rate, validation, anything else). */
export function errorText(t, error) {
  if (error.code === 'NETWORK') return t('network');
  if (error.status === 429) return t('tooMany');
  if (error.status === 400) return t('invalid');
  return t('failed');
}
