/**
 * Test-only: a virtual clock for a service process a test starts (virtual-clock.ts). Never loaded by the product:
 * a test passes it to the processes it starts with NODE_OPTIONS="--import <this file>" and VIRTUAL_CLOCK_DIR.
 *
 * `Date` reads the real clock plus an offset that only grows, so time still runs (durations, leases and timeouts
 * measured with Date behave as usual) and a test moves it forward by hours at once; timers stay real. The test
 * moves it through a Unix socket `<VIRTUAL_CLOCK_DIR>/<pid>.sock`:
 *   PUT /offset {"offsetMs": n}  -> 204 (409 if n is smaller than the offset: time never goes back)
 *   GET /offset                  -> {"offsetMs": n}
 *
 * Plain JavaScript: NODE_OPTIONS imports run before the `--import tsx` of the command line registers TypeScript,
 * and again in Node's module-hooks thread, where this does nothing.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.VIRTUAL_CLOCK_DIR;
if (isMainThread && dir) install(dir);

/** @param {string} socketDir */
function install(socketDir) {
  const RealDate = Date;
  let offsetMs = 0;

  class VirtualDate extends RealDate {
    /** @param {...any} args */
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      // @ts-expect-error Date's constructor takes these arguments as they came
      else super(...args);
    }

    static now() {
      return RealDate.now() + offsetMs;
    }

    /** Dates made before the clock was installed, or by Node itself, are Dates too. */
    static [Symbol.hasInstance](/** @type {unknown} */ value) {
      return value instanceof RealDate;
    }
  }
  // `Date()` called without `new` is the current time as a string.
  globalThis.Date = new Proxy(VirtualDate, { apply: () => new VirtualDate().toString() });

  const socket = join(socketDir, `${process.pid}.sock`);
  rmSync(socket, { force: true });
  const server = createServer((req, res) => {
    /** @param {number} status @param {unknown} [body] */
    const answer = (status, body) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.url !== '/offset') return answer(404);
    if (req.method === 'GET') return answer(200, { offsetMs });
    if (req.method !== 'PUT') return answer(405);
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (/** @type {string} */ chunk) => (text += chunk));
    req.on('end', () => {
      let next;
      try {
        next = JSON.parse(text).offsetMs;
      } catch {
        return answer(400, { error: 'body must be JSON {"offsetMs": n}' });
      }
      if (typeof next !== 'number' || !Number.isSafeInteger(next))
        return answer(400, { error: 'offsetMs must be an integer' });
      if (next < offsetMs) return answer(409, { error: 'the virtual clock never goes back', offsetMs });
      offsetMs = next;
      return answer(204);
    });
  });
  server.listen(socket);
  server.unref();
  process.once('exit', () => rmSync(socket, { force: true }));
}
