import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real SMTP server that stops forwarding what the client says at the first command
 * starting with `at` (e.g. `RCPT TO`): the server never gets it, the client waits for its answer. Tests use it to
 * catch a sender at a known point of its SMTP conversation, then kill it there.
 */
export interface SmtpPause {
  /** `smtp://127.0.0.1:<port>` of the relay. */
  readonly url: string;
  /** Resolves when a client reached the command. */
  readonly reached: Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpPause(target: string, at: string): Promise<SmtpPause> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let reachedIt = () => {};
  const reached = new Promise<void>((resolve) => (reachedIt = resolve));
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let held = false;
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (held) return;
      // a line starting with the command, maybe after others in the same chunk (pipelining)
      const text = `\n${chunk.toString('latin1').toUpperCase()}`;
      const line = text.indexOf(`\n${at.toUpperCase()}`);
      if (line < 0) return void upstream.write(chunk);
      if (line > 0) upstream.write(chunk.subarray(0, line));
      held = true;
      reachedIt();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    reached,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
