/**
 * Scenario 8 only: loaded into the service process with `node --import` (see virtual-clock.ts), before the
 * service's own code. It fakes ONLY `Date` (timers stay real, so I/O, lock leases and timeouts behave as usual)
 * with @sinonjs/fake-timers, starting at VIRTUAL_CLOCK_START_MS and standing still, and opens a loopback
 * endpoint on VIRTUAL_CLOCK_PORT through which the simulator moves the clock forward:
 *   PUT /time {"epochMs": n}  -> 204 (409 if n is earlier than the clock: time never goes back)
 *   GET /time                 -> {"epochMs": n}
 * Nothing of this is in the product: the bench passes the flag to the process it starts.
 */
import { createServer } from 'node:http';
import { loadFakeTimers } from '../deps.js';

const start = Number(process.env.VIRTUAL_CLOCK_START_MS);
const port = Number(process.env.VIRTUAL_CLOCK_PORT);
if (!Number.isSafeInteger(start) || !Number.isInteger(port) || port <= 0) {
  throw new Error('virtual clock: VIRTUAL_CLOCK_START_MS and VIRTUAL_CLOCK_PORT are required');
}

const clock = (await loadFakeTimers()).install({ now: start, toFake: ['Date'] });

const server = createServer((req, res) => {
  const answer = (status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (req.url !== '/time') return answer(404);
  if (req.method === 'GET') return answer(200, { epochMs: clock.now });
  if (req.method !== 'PUT') return answer(405);
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => {
    let epochMs: unknown;
    try {
      epochMs = (JSON.parse(text) as { epochMs?: unknown }).epochMs;
    } catch {
      return answer(400, { error: 'body must be JSON {"epochMs": n}' });
    }
    if (typeof epochMs !== 'number' || !Number.isSafeInteger(epochMs)) {
      return answer(400, { error: 'epochMs must be an integer' });
    }
    if (epochMs < clock.now)
      return answer(409, { error: 'the virtual clock never goes back', epochMs: clock.now });
    clock.setSystemTime(epochMs);
    return answer(204);
  });
});
server.listen(port, '127.0.0.1');
server.unref();
