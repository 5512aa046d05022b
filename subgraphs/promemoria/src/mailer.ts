import { createTransport } from 'nodemailer';
import type { MailSettings } from './mail-settings.js';

export interface ReminderEmail {
  to: string;
  subject: string;
  text: string;
  /** Deterministic per reminder and start (the scheduler's effect id): a repeat has the same Message-ID. */
  messageId: string;
}

export interface Mailer {
  send(email: ReminderEmail): Promise<void>;
  close(): void;
}

/**
 * Sends over SMTP with nodemailer. Every wait is bounded well below the scheduler's 60 s lease (connection 10 s,
 * greeting 10 s, socket 20 s): a slow server fails the attempt, which is retried, rather than outliving its claim.
 */
export function createSmtpMailer(settings: MailSettings): Mailer | null {
  if (!settings.smtpUrl || !settings.from) return null;
  const from = settings.from;
  const transport = createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(email) {
      await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        messageId: email.messageId,
      });
    },
    close: () => transport.close(),
  };
}
