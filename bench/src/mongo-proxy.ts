/**
 * A counting TCP proxy in front of the MongoDB-protocol server (run as its own process: `node --import tsx
 * mongo-proxy.ts <listenPort> <targetPort>`). Bytes pass through untouched; in the client → server direction it
 * frames the wire-protocol messages (int32 length prefix) and counts each by command name (the first key of an
 * OP_MSG's body, e.g. find, getMore, insert, findAndModify, hello) and by command + collection. The parent asks
 * for the counts over IPC: { type: 'snapshot' } → { type: 'snapshot', commands, byCollection, bytes }, where bytes
 * counts both directions ('toServer', 'fromServer').
 */
import { createServer, connect, type Socket } from 'node:net';

const [listenPort, targetPort] = process.argv.slice(2).map(Number);
if (!listenPort || !targetPort) throw new Error('usage: mongo-proxy.ts <listenPort> <targetPort>');

const commands = new Map<string, number>();
const byCollection = new Map<string, number>();
const bytes = { toServer: 0, fromServer: 0 };
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

const OP_MSG = 2013;
const OP_QUERY = 2004;
const OP_COMPRESSED = 2012;

/** The command name (and collection, when the first value is a string) of one complete message's start. */
function describe(message: Buffer): { command: string; collection: string | null } {
  const opCode = message.readInt32LE(12);
  if (opCode === OP_COMPRESSED) return { command: '(compressed)', collection: null };
  if (opCode === OP_QUERY) return { command: '(legacy OP_QUERY)', collection: null };
  if (opCode !== OP_MSG) return { command: `(opCode ${opCode})`, collection: null };
  // header 16, flagBits 4, section kind 1, then (kind 0) a BSON document: int32 size, element type, key…
  if (message.length < 27 || message[20] !== 0) return { command: '(OP_MSG)', collection: null };
  const type = message[25];
  const keyEnd = message.indexOf(0, 26);
  if (keyEnd < 0) return { command: '(OP_MSG)', collection: null };
  const command = message.toString('utf8', 26, keyEnd);
  if (type !== 0x02 || keyEnd + 5 > message.length) return { command, collection: null };
  const length = message.readInt32LE(keyEnd + 1);
  const start = keyEnd + 5;
  const collection =
    start + length - 1 <= message.length ? message.toString('utf8', start, start + length - 1) : null;
  return { command, collection };
}

/** Frames the client → server stream: counts every complete message, keeps at most one partial one. */
function counter() {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 16) {
      const length = pending.readInt32LE(0);
      if (length < 16 || pending.length < length) break;
      const { command, collection } = describe(pending.subarray(0, length));
      bump(commands, command);
      if (collection !== null) bump(byCollection, `${command} ${collection}`);
      pending = pending.subarray(length);
    }
    if (pending.length > 0) pending = Buffer.from(pending); // do not pin the whole chunk
  };
}

const server = createServer((client: Socket) => {
  client.setNoDelay(true);
  const upstream = connect({ host: '127.0.0.1', port: targetPort });
  upstream.setNoDelay(true);
  const count = counter();
  client.on('data', (chunk: Buffer) => {
    bytes.toServer += chunk.length;
    count(chunk);
    if (!upstream.write(chunk)) client.pause();
  });
  upstream.on('drain', () => client.resume());
  upstream.on('data', (chunk: Buffer) => {
    bytes.fromServer += chunk.length;
    if (!client.write(chunk)) upstream.pause();
  });
  client.on('drain', () => upstream.resume());
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
  client.on('close', close);
  upstream.on('close', close);
});

server.listen(listenPort, '127.0.0.1', () => process.send?.({ type: 'ready' }));
process.on('message', (message: { type?: string }) => {
  if (message.type === 'snapshot') {
    process.send?.({
      type: 'snapshot',
      commands: Object.fromEntries(commands),
      byCollection: Object.fromEntries(byCollection),
      bytes,
    });
  }
});
process.on('disconnect', () => process.exit(0));
