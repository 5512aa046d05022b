import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createWriteBatcher } from '../src/subscriptions/write-batcher.js';

/** A duplex that records each system-call-like write: one entry per `_writev`/`_write`, with its chunks. */
function recordingSocket() {
  const writes: string[][] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => String(c.chunk)));
      done();
    },
  });
  return { socket, writes };
}

describe('write batcher', () => {
  it("sends a socket's frames of one turn in one write, after the turn", async () => {
    const batcher = createWriteBatcher();
    const a = recordingSocket();
    const b = recordingSocket();
    for (const frame of ['1', '2', '3']) {
      batcher.hold(a.socket);
      a.socket.write(frame);
    }
    batcher.hold(b.socket);
    b.socket.write('x');
    expect(a.writes).toEqual([]);

    await new Promise((resolve) => setImmediate(resolve));
    expect(a.writes).toEqual([['1', '2', '3']]);
    expect(b.writes).toEqual([['x']]);

    // The next turn starts a new batch.
    batcher.hold(a.socket);
    a.socket.write('4');
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.writes).toEqual([['1', '2', '3'], ['4']]);
  });

  it('lets a burst leave in slices of maxHeldBytes within the turn', async () => {
    const batcher = createWriteBatcher({ maxHeldBytes: 10 });
    const a = recordingSocket();
    for (const frame of ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee']) {
      batcher.hold(a.socket);
      a.socket.write(frame);
    }
    // 12 bytes held when the fourth frame came: the first three left, the rest waits for the turn's end.
    expect(a.writes).toEqual([['aaaa', 'bbbb', 'cccc']]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.writes).toEqual([
      ['aaaa', 'bbbb', 'cccc'],
      ['dddd', 'eeee'],
    ]);
  });
});
