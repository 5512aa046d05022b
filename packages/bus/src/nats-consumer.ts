import { NatsError, type ConsumerConfig, type JetStreamManager } from 'nats';

/**
 * Creates a durable consumer of the stream, or brings an existing one of that name to this configuration
 * (it keeps its position). Safe when several processes start at once: an identical add succeeds.
 */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
): Promise<void> {
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    if (!(error instanceof NatsError) || !error.isJetStreamError()) throw error;
    // Exists with another configuration (an older filter): update what may change in place.
    const { deliver_policy: _created, ...changeable } = config;
    await jsm.consumers.update(stream, config.durable_name, changeable);
  }
}
