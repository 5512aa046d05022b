import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus, natsSubject, type CloudEvent, type Subscription } from '@coperto/bus';
import type { Logger } from '@coperto/server-kit';
import { startEventFeed, type EventFeed } from '../src/subscriptions/event-feed.js';
import { tableStatusEvent } from './support/events.js';

function recordingLogger(): Logger & {
  warnings: Array<{ message: string; fields?: Record<string, unknown> }>;
} {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const logger = {
    warnings,
    debug() {},
    info() {},
    error() {},
    warn(message: string, fields?: Record<string, unknown>) {
      warnings.push({ message, ...(fields ? { fields } : {}) });
    },
    child: () => logger,
  };
  return logger;
}

async function take(subscription: Subscription, count: number): Promise<CloudEvent[]> {
  const events: CloudEvent[] = [];
  for await (const event of subscription) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

describe('event feed routing', () => {
  let feed: EventFeed | undefined;
  afterEach(async () => {
    await feed?.close();
    feed = undefined;
  });

  it("drops an event published on tenant A's subject that claims tenant B: neither A nor B receives it", async () => {
    const source = createMemoryBus();
    const logger = recordingLogger();
    feed = await startEventFeed(source, logger);
    const alpha = feed.bus.subscribe(natsSubject('alpha', 'tables.status'));
    const beta = feed.bus.subscribe(natsSubject('beta', 'tables.status'));

    const forged = tableStatusEvent('beta', { id: 'forged' });
    await source.publish(natsSubject('alpha', 'tables.status'), forged.event);
    // Later genuine events on both subjects: each subscription's first event shows the forged one never came.
    const genuineAlpha = tableStatusEvent('alpha', { id: 'a1' });
    const genuineBeta = tableStatusEvent('beta', { id: 'b1' });
    await source.publish(genuineAlpha.subject, genuineAlpha.event);
    await source.publish(genuineBeta.subject, genuineBeta.event);

    expect((await take(alpha, 1)).map((e) => e.subject)).toEqual(['a1']);
    expect((await take(beta, 1)).map((e) => e.subject)).toEqual(['b1']);
    expect(logger.warnings).toEqual([
      expect.objectContaining({
        message: 'event dropped: its envelope disagrees with its subject',
        fields: expect.objectContaining({
          reason: 'tenant-mismatch',
          subject: natsSubject('alpha', 'tables.status'),
          id: forged.event.id,
        }),
      }),
    ]);
    await source.close();
  });
});
