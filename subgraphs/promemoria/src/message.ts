import type { BookingFacts } from './booking-facts.js';

/** The guest's links of a reminder: the manage page, opened on its confirm or cancel step. */
export interface ReminderLinks {
  manage: string;
  confirm: string;
  cancel: string;
}

/** `<publicUrl>/prenota/gestisci#token=…` (the token in the fragment: never sent to a server, docs/booking-page.md). */
export function reminderLinks(publicUrl: string, token: string): ReminderLinks {
  const manage = `${publicUrl}/prenota/gestisci#token=${encodeURIComponent(token)}`;
  return { manage, confirm: `${manage}&azione=conferma`, cancel: `${manage}&azione=annulla` };
}

export interface ReminderText {
  subject: string;
  text: string;
}

/** The reminder email in the booking's language (Italian unless it says `en`), with the restaurant's local time. */
export function reminderText(
  booking: Pick<BookingFacts, 'customerName' | 'startsAt' | 'covers' | 'codice' | 'lingua'>,
  links: ReminderLinks,
  timeZone: string,
): ReminderText {
  const english = booking.lingua === 'en';
  const when = new Intl.DateTimeFormat(english ? 'en-GB' : 'it-IT', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(booking.startsAt));
  const name = booking.customerName.trim();
  if (english)
    return {
      subject: `Reminder: your table on ${when}`,
      text: [
        `${name ? `Dear ${name}` : 'Hello'},`,
        '',
        `this is a reminder of your booking for ${booking.covers} on ${when} (code ${booking.codice}).`,
        '',
        `Confirm: ${links.confirm}`,
        `Cancel: ${links.cancel}`,
        `Change or see it: ${links.manage}`,
        '',
        'See you soon.',
      ].join('\n'),
    };
  return {
    subject: `Promemoria: il tuo tavolo ${when}`,
    text: [
      `${name ? `Gentile ${name}` : 'Buongiorno'},`,
      '',
      `ti ricordiamo la prenotazione per ${booking.covers} ${booking.covers === 1 ? 'persona' : 'persone'} ${when} (codice ${booking.codice}).`,
      '',
      `Conferma: ${links.confirm}`,
      `Annulla: ${links.cancel}`,
      `Modifica o consulta: ${links.manage}`,
      '',
      'A presto.',
    ].join('\n'),
  };
}
