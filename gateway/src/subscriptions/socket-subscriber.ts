import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { nextFramer } from './next-frame.js';
import type { SocketBudget } from './socket-budget.js';
import type { GroupSubscriber } from './subscription-groups.js';
import type { WriteBatcher } from './write-batcher.js';

export interface SocketSubscriberOptions {
  socket: WebSocket;
  /** The TCP socket under `socket` (the upgrade request's), corked by `batcher` for the turn. */
  transport: Duplex;
  batcher: WriteBatcher;
  /** The subscription's id on the socket (client-chosen). */
  id: string;
  budget: SocketBudget;
}

/**
 * Subscription `id` of one socket as a member of a subscription group: each shared payload is framed with the
 * id and written to the socket (in one write with the socket's other frames of this event-loop turn). A frame counts in the socket's budget from the write until `ws` has
 * handed it to the kernel, so a client that stops reading exceeds the budget (pending frames or buffered
 * bytes) and the budget closes the socket with 4429, ending every membership of the socket.
 */
export function socketSubscriber(options: SocketSubscriberOptions): GroupSubscriber {
  const { socket, transport, batcher, budget } = options;
  const frame = nextFramer(options.id);
  const written = () => budget.release();
  return {
    deliver(payloadJson) {
      if (socket.readyState !== socket.OPEN || !budget.admit()) return;
      batcher.hold(transport);
      socket.send(frame(payloadJson), written);
    },
    fellBehind: () => budget.exceed(),
    track: (stop) => budget.track(stop),
  };
}
