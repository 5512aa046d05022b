import type { Duplex } from 'node:stream';

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
 * one per event.
 */
export function createWriteBatcher(): WriteBatcher {
  const held = new Set<Duplex>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const socket of held) socket.uncork();
    held.clear();
  };
  return {
    hold(socket) {
      if (held.has(socket)) return;
      socket.cork();
      held.add(socket);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
