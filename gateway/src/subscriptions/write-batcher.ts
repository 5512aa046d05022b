import type { Duplex } from 'node:stream';

/** Bytes a socket holds before they leave within the turn. */
export const DEFAULT_MAX_HELD_BYTES = 64 * 1024;

/** Holds a socket's writes until the end of the current event-loop turn. */
export interface WriteBatcher {
  /** Corks `socket` (once per turn) so that every frame written to it in this turn leaves in one write. */
  hold(socket: Duplex): void;
}

/**
 * Coalesces the frames a socket gets in one event-loop turn into one system call: the first write of a turn
 * corks the socket, one `setImmediate` uncorks every held socket after the turn's I/O callbacks and
 * microtasks. An idle gateway sends each event at once (the turn ends right after it); a busy one, whose
 * groups go through several queued events per turn, pays one write per socket for all of them instead of
 * one per event. Past `maxHeldBytes` held for one socket, what it holds leaves at once.
 */
export function createWriteBatcher(options: { maxHeldBytes?: number } = {}): WriteBatcher {
  const maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
  const held = new Set<Duplex>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const socket of held) socket.uncork();
    held.clear();
  };
  return {
    hold(socket) {
      if (held.has(socket)) {
        // A burst (many queued events in one turn) leaves in slices, so that what a socket holds stays small
        // next to its budget's maxBufferedBytes, which counts held bytes too.
        if (socket.writableLength >= maxHeldBytes) {
          socket.uncork();
          socket.cork();
        }
        return;
      }
      socket.cork();
      held.add(socket);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
