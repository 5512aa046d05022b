import { z } from 'zod';

/** How this process sends reminder emails and builds the guests' links. */
export interface MailSettings {
  /** SMTP_URL (smtp://user:pass@host:587, smtps://… for TLS from the start); null = no emails, events only. */
  smtpUrl: string | null;
  /** SMTP_FROM, e.g. `"Trattoria" <prenotazioni@example.com>`; null = no emails. */
  from: string | null;
  /** PUBLIC_URL: where guests reach the gateway (the manage page's links); default http://localhost:3000. */
  publicUrl: string;
  /** REMINDERS_POLL_MS: the longest wait between two looks for due reminders; null = the scheduler's 5 s. */
  pollMs: number | null;
}

/** The variables promemoria reads (its process's config.ts; the embedded gateway's config.ts). */
export const mailSettingsShape = {
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().min(3).max(320).optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  REMINDERS_POLL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
};

export function mailSettingsOf(config: {
  SMTP_URL?: string | undefined;
  SMTP_FROM?: string | undefined;
  PUBLIC_URL?: string | undefined;
  REMINDERS_POLL_MS?: number | undefined;
}): MailSettings {
  return {
    smtpUrl: config.SMTP_URL ?? null,
    from: config.SMTP_FROM ?? null,
    publicUrl: (config.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    pollMs: config.REMINDERS_POLL_MS ?? null,
  };
}
