/**
 * A real SMTP server for tests: mailpit (scripts/install-test-servers.sh puts it in .cache/go-bin), its SMTP port
 * and its HTTP API on loopback, messages in a temporary database. Tests send through `smtpUrl` and read what
 * arrived with `messages()` / `message(id)`. The vitest global setup starts one for the run (the shared stacks send
 * through it: `sharedMailpitUrls()`); a test that needs its own starts one with `startMailpit()`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePorts, killOnExit } from './servers.js';

const binary = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '../../..'),
  '.cache',
  'go-bin',
  'mailpit',
);

/** A message as mailpit lists it. */
export interface MailpitSummary {
  ID: string;
  MessageID: string;
  Subject: string;
  To: Array<{ Address: string }>;
}

/** A whole message (its text part). */
export interface MailpitMessage extends MailpitSummary {
  Text: string;
  /** The Date header (when the sender says it sent it), ISO 8601. */
  Date: string;
}

/** Where a mailpit listens. */
export interface MailpitUrls {
  /** `smtp://127.0.0.1:<port>` */
  smtpUrl: string;
  /** `http://127.0.0.1:<port>/api/v1` */
  apiUrl: string;
}

/** What a test reads from a mailpit. */
export interface MailpitClient {
  readonly smtpUrl: string;
  /** Every message received, newest first. */
  messages(): Promise<MailpitSummary[]>;
  message(id: string): Promise<MailpitMessage>;
  /** Deletes every message. */
  clear(): Promise<void>;
}

/** A mailpit this process started. */
export interface Mailpit extends MailpitClient {
  readonly urls: MailpitUrls;
  stop(): Promise<void>;
}

/** The client of a running mailpit. */
export function mailpitClient({ smtpUrl, apiUrl }: MailpitUrls): MailpitClient {
  const call = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${apiUrl}${path}`, init);
    if (!response.ok) throw new Error(`mailpit ${path}: ${response.status}`);
    return response;
  };
  return {
    smtpUrl,
    messages: async () =>
      ((await (await call('/messages')).json()) as { messages: MailpitSummary[] }).messages,
    message: async (id) => (await (await call(`/message/${id}`)).json()) as MailpitMessage,
    clear: async () => void (await call('/messages', { method: 'DELETE' })),
  };
}

/** The mailpit the vitest global setup started for the run. */
export function sharedMailpitUrls(): MailpitUrls {
  return inject('mailpit');
}

declare module 'vitest' {
  export interface ProvidedContext {
    mailpit: MailpitUrls;
  }
}

export async function startMailpit(): Promise<Mailpit> {
  const [smtpPort, httpPort] = await freePorts(2);
  const dir = mkdtempSync(join(tmpdir(), 'coperto-mailpit-'));
  const child = spawn(
    binary,
    [
      '--smtp',
      `127.0.0.1:${smtpPort}`,
      '--listen',
      `127.0.0.1:${httpPort}`,
      '--database',
      join(dir, 'mailpit.db'),
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      // Every message kept: by default mailpit deletes all but the newest 500, and one run's shared server receives
      // more than that (a test counting its emails would find some gone).
      '--max',
      '0',
      '--quiet',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  killOnExit(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const urls = { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, apiUrl: `http://127.0.0.1:${httpPort}/api/v1` };
  const client = mailpitClient(urls);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mailpit exited (${child.exitCode}): ${stderr}`);
    try {
      await client.messages();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`mailpit did not answer: ${(error as Error).message} ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    ...client,
    urls,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
