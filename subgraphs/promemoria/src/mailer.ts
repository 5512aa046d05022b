import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { MailSettings } from './mail-settings.js';

export interface ReminderEmail {
  to: string;
  subject: string;
  text: string;
  /** Deterministic per reminder and start (the scheduler's effect id): a repeat has the same Message-ID. */
  messageId: string;
}

/**
 * Called once the SMTP server has taken the whole message and only the end of its data (`.`) is left to send:
 * true lets it go (the server then delivers), false drops the connection before it (the server delivers nothing).
 */
export type CommitSend = () => Promise<boolean>;

/** `sent`: the server accepted the message. `not-committed`: the commit said no, nothing was delivered. */
export type SendOutcome = 'sent' | 'not-committed';

export interface Mailer {
  /**
   * Sends the email over a connection of its own, asking `commit` at the last moment a message can still be
   * withdrawn (before the end of its data): a process killed before the commit leaves nothing delivered, one killed
   * after it left the message with the server (or about to be: the rest of the data is one write). A failure
   * throws nodemailer's error (`responseCode` when the server answered with a refusal).
   */
  send(email: ReminderEmail, commit: CommitSend): Promise<SendOutcome>;
  close(): void;
}

/** Every wait bounded (connection 10 s, greeting 10 s, socket 20 s): a slow server fails the attempt, which is retried. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Sends over SMTP with nodemailer's SMTP connection (STARTTLS when offered, `smtps://` TLS from the start, the
 * URL's credentials). The message is composed by nodemailer, then written as a stream that ends only after
 * `commit`: the server takes a message only when its data ends (`<CRLF>.<CRLF>`), so before that a dropped
 * connection leaves it undelivered.
 */
export function createSmtpMailer(settings: MailSettings): Mailer | null {
  if (!settings.smtpUrl || !settings.from) return null;
  const { host, port, secure, auth } = parseConnectionUrl(settings.smtpUrl);
  const from = settings.from;
  const open = new Set<SMTPConnection>();
  return {
    async send(email, commit) {
      const node = new MailComposer({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        messageId: email.messageId,
      }).compile();
      const body = await node.build();
      const connection = new SMTPConnection({ host, port, secure, ...TIMEOUTS });
      open.add(connection);
      // A failure or a close comes as an event, at any step (an error event with no listener would end the process).
      let ended = (_error: Error) => {};
      const gone = new Promise<never>((_resolve, reject) => (ended = reject));
      gone.catch(() => {});
      connection.on('error', (error: Error) => ended(error));
      connection.once('end', () => ended(new Error('the SMTP connection closed')));
      const step = (run: (done: (error?: Error | null) => void) => void) =>
        Promise.race([
          new Promise<void>((resolve, reject) => run((error) => (error ? reject(error) : resolve()))),
          gone,
        ]);
      let committed: boolean | null = null;
      try {
        await step((done) => connection.connect(() => done()));
        if (auth?.user)
          await step((done) => connection.login({ user: auth.user, pass: auth.pass ?? '' }, done));
        const data = endingAfter(body, async () => (committed = await commit()));
        await step((done) => connection.send(node.getEnvelope(), data, done));
        connection.quit();
        return 'sent';
      } catch (error) {
        connection.close();
        if (committed === false) return 'not-committed';
        throw error;
      } finally {
        open.delete(connection);
      }
    },
    close: () => {
      for (const connection of open) connection.close();
    },
  };
}

/**
 * The message's data as a stream: the whole body first; when the connection has taken it and asks for more,
 * `decide` runs, and the stream ends (the connection then writes the end of data) only if it said yes; otherwise
 * it fails, and the connection is dropped without that end.
 */
function endingAfter(body: Buffer, decide: () => Promise<boolean>): Readable {
  let reads = 0;
  return new Readable({
    read() {
      if (reads++ === 0) {
        this.push(body);
        return;
      }
      if (reads !== 2) return;
      decide().then(
        (go) => (go ? this.push(null) : this.destroy(new Error('the send was not committed'))),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
}
