import { startNatsServer } from '@coperto/testkit';
import { it } from 'vitest';
import { connectNatsBus } from '../src/nats-bus.js';
import { buildEvent } from '../src/events.js';
import type { TenantId } from '@coperto/auth';

it('debug', async () => {
  const server = await startNatsServer();
  const bus = await connectNatsBus({ url: server.url, publishTimeoutMs: 1000 });
  const t = 'dbg' as TenantId;
  const mk = (n: number) => buildEvent({ tenantId: t, type: 'tables.status', source: 's', subject: 'x', data: n });
  const sub = bus.subscribe('tenant.dbg.>');
  const it = sub[Symbol.asyncIterator]();
  (async () => { for (;;) { const r = await it.next(); console.log(Date.now() % 100000, 'got', r.done, r.value?.data); if (r.done) break; } })();
  const e1 = mk(1); await bus.publish(e1.message.subject, e1.event);
  await server.kill();
  console.log(Date.now() % 100000, 'killed', bus.status());
  const e2 = mk(2); await bus.publish(e2.message.subject, e2.event).catch((e) => console.log('down publish', e.message));
  await server.restart();
  console.log(Date.now() % 100000, 'restarted', bus.status());
  for (let i = 3; i < 12; i++) {
    const e = mk(i);
    await bus.publish(e.message.subject, e.event).then(() => console.log(Date.now() % 100000, 'published', i, bus.status()), (err) => console.log(Date.now() % 100000, 'fail', i, err.message, bus.status()));
    await new Promise((r) => setTimeout(r, 500));
  }
  await bus.close();
  await server.stop();
}, 60000);
