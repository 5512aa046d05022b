/**
 * Scenario 4's client side: `sockets` connections subscribed to tableStatusChanged, and an open-loop stream of
 * `PUT /api/tavoli/:id/status` at `rate` per second. Each PUT carries a unique orderId, which the event echoes
 * (data.orderId), so every delivery is matched to the moment its PUT was sent: push latency = event received at
 * a socket − PUT sent; PUT latency = response − PUT sent. Same process, same clock.
 *
 * One load process cannot parse what a thousand sockets receive at 200 events/s (200,000 messages/s) without
 * becoming what is measured, so latency is measured on a spread sample of at most MEASURED_SOCKETS sockets
 * (graphql-ws clients, every k-th socket in subscription order, since the gateway writes to its sockets in that
 * order); the other sockets speak graphql-transport-ws by hand and only count the frames they receive, which
 * makes the gateway do the full work and still counts every delivery.
 */
import {
  loadGraphQLWs,
  loadRawWebSocket,
  loadWebSocket,
  type GraphQLWsClient,
  type RawWebSocket,
} from './deps.js';
import type { PushJob, PushResult, PushRound } from './load-types.js';
import { percentile, sortedCopy } from './stats.js';

const SUBSCRIPTION = 'subscription { tableStatusChanged { data { orderId } } }';
const STATUSES = ['occupied', 'open'] as const;
const MAX_IN_FLIGHT = 64;
/** Sockets whose every event is parsed and timed; the others only count. */
const MEASURED_SOCKETS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A socket that subscribes by hand and counts the `next` frames of the current round: those whose orderId
 * starts with the round's tag, found by a byte search instead of parsing (late warm-up or earlier-round
 * frames are not counted).
 */
interface CountingSocket {
  frames: number;
  socket: RawWebSocket;
}

/** The bytes every event of a warm-up PUT, or of round `round`, carries (orderIds `warm-<n>`, `r<round>-<n>`). */
const tagOf = (round: number | 'warm') =>
  Buffer.from(round === 'warm' ? '"orderId":"warm-' : `"orderId":"r${round}-`);

function countingSocket(
  WebSocket: new (url: string, protocol: string) => RawWebSocket,
  job: PushJob,
  tag: () => Buffer,
  onClosed: (code: number) => void,
  onFrame?: (frame: Buffer, receivedAt: number) => void,
): CountingSocket {
  const socket = new WebSocket(job.wsUrl, 'graphql-transport-ws');
  const counting: CountingSocket = { frames: 0, socket };
  let acked = false;
  socket.on('open', () =>
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${job.token}` } }),
    ),
  );
  socket.on('message', (data) => {
    if (acked) {
      const receivedAt = performance.now();
      if (data.indexOf(tag()) >= 0) counting.frames++;
      onFrame?.(data, receivedAt);
      return;
    }
    if ((JSON.parse(data.toString()) as { type?: string }).type !== 'connection_ack') return;
    acked = true;
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
  });
  socket.on('close', onClosed);
  socket.on('error', () => {});
  return counting;
}

const ORDER_ID = Buffer.from('"orderId":"');

/** The orderId a `next` frame of SUBSCRIPTION carries, found without parsing the frame ('' when none). */
export function orderIdOf(frame: Buffer): string {
  const at = frame.indexOf(ORDER_ID);
  if (at < 0) return '';
  const start = at + ORDER_ID.length;
  const end = frame.indexOf(0x22, start);
  return end < 0 ? '' : frame.toString('latin1', start, end);
}

export async function runPush(job: PushJob): Promise<PushResult> {
  const { createClient } = await loadGraphQLWs();
  const WebSocket = await loadWebSocket();
  const RawSocket = await loadRawWebSocket();
  const sentAt = new Map<string, number>();
  const warmed = new Set<number>();
  const closed: Record<string, number> = {};
  const countClose = (code: string) => (closed[code] = (closed[code] ?? 0) + 1);
  let pushLatencies: number[] = [];
  /** Per orderId, the latency at the first timed socket it reached. */
  const firstLatency = new Map<string, number>();
  let received = 0;

  // What the counting sockets count: warm-up frames first (they tell a subscription is live), then a round's.
  let roundTag = tagOf('warm');
  const every = Math.max(1, Math.ceil(job.sockets / MEASURED_SOCKETS));
  const clients: GraphQLWsClient[] = [];
  const counters: CountingSocket[] = [];
  /** Every socket speaking graphql-transport-ws by hand (counting or timed), to close at the end. */
  const raw: RawWebSocket[] = [];
  /** A frame reached timed socket `i` at `now`: its push latency, or a warm-up frame telling it is live. */
  const timed = (i: number, orderId: string, now: number) => {
    const sent = sentAt.get(orderId);
    if (sent !== undefined) {
      const latency = now - sent;
      pushLatencies.push(latency);
      if (!firstLatency.has(orderId)) firstLatency.set(orderId, latency);
      received++;
    } else if (orderId.startsWith('warm-')) warmed.add(i);
  };
  for (let i = 0; i < job.sockets; i++) {
    if (i % every !== 0 || job.timing === 'raw') {
      const onFrame =
        i % every === 0 ? (frame: Buffer, at: number) => timed(i, orderIdOf(frame), at) : undefined;
      const counting = countingSocket(
        RawSocket,
        job,
        () => roundTag,
        (code) => countClose(String(code)),
        onFrame,
      );
      raw.push(counting.socket);
      // A timed socket's frames are counted by `timed`, not twice.
      if (!onFrame) counters.push(counting);
      if (i % 50 === 0) await sleep(10);
      continue;
    }
    const client = createClient({
      url: job.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${job.token}` },
      lazy: false,
      retryAttempts: 0,
    });
    client.on('closed', (event) => countClose(String((event as { code?: number }).code ?? '?')));
    client.subscribe(
      { query: SUBSCRIPTION },
      {
        next: (value) => {
          const now = performance.now();
          const data = value.data as
            { tableStatusChanged?: { data?: { orderId?: string | null } } } | undefined;
          timed(i, data?.tableStatusChanged?.data?.orderId ?? '', now);
        },
        error: () => {},
        complete: () => {},
      },
    );
    clients.push(client);
    // Connections open a few at a time, not a thousand handshakes at once.
    if (i % 50 === 0) await sleep(10);
  }
  const live = () => warmed.size + counters.filter((c) => c.frames > 0).length;
  const counted = () => counters.reduce((sum, c) => sum + c.frames, 0);

  const toggles = new Map<string, number>();
  let putSeq = 0;
  const put = async (orderId: string): Promise<number | null> => {
    const tableId = job.tableIds[putSeq++ % job.tableIds.length]!;
    const toggle = (toggles.get(tableId) ?? 0) + 1;
    toggles.set(tableId, toggle);
    const started = performance.now();
    if (!orderId.startsWith('warm-')) sentAt.set(orderId, started);
    try {
      const response = await fetch(`${job.baseUrl}/api/tavoli/${tableId}/status`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: STATUSES[toggle % 2], orderId }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      return response.ok ? performance.now() - started : null;
    } catch {
      return null;
    }
  };

  try {
    // Warm-up: status changes until every socket has seen one (its subscription is live), 30 s at most.
    const warmUntil = Date.now() + 30_000;
    for (let k = 0; live() < job.sockets && Date.now() < warmUntil; k++) {
      void put(`warm-${k}`);
      await sleep(50);
    }
    const subscribed = live();
    const measured = warmed.size;
    await sleep(500);

    const rounds: PushRound[] = [];
    // Round -1 is a warm-up at full rate (JIT, pools), not reported.
    for (let round = -1; round < job.rounds; round++) {
      const roundSeconds = round < 0 ? job.warmupSeconds : job.seconds;
      pushLatencies = [];
      received = 0;
      roundTag = tagOf(round);
      const countedBefore = counted();
      sentAt.clear();
      firstLatency.clear();
      const putLatencies: number[] = [];
      let sent = 0;
      let inFlight = 0;
      const pending = new Set<Promise<void>>();
      const began = performance.now();
      const end = began + roundSeconds * 1000;
      while (performance.now() < end) {
        const due = Math.floor(((performance.now() - began) / 1000) * job.rate);
        while (sent < due && inFlight < MAX_IN_FLIGHT) {
          sent++;
          inFlight++;
          const p = put(`r${round}-${sent}`).then((latency) => {
            inFlight--;
            if (latency !== null) putLatencies.push(latency);
          });
          pending.add(p);
          void p.finally(() => pending.delete(p));
        }
        await sleep(1);
      }
      const seconds = (performance.now() - began) / 1000;
      await Promise.all(pending);
      const expected = putLatencies.length * subscribed;
      const delivered = () => received + counted() - countedBefore;
      const graceUntil = performance.now() + 5000;
      while (delivered() < expected && performance.now() < graceUntil) await sleep(20);
      await sleep(1000);
      if (round < 0) continue;
      const puts = sortedCopy(putLatencies);
      const pushes = sortedCopy(pushLatencies);
      const firsts = sortedCopy([...firstLatency.values()]);
      rounds.push({
        putP50: percentile(puts, 50),
        putP99: percentile(puts, 99),
        pushP50: percentile(pushes, 50),
        pushP99: percentile(pushes, 99),
        firstP50: percentile(firsts, 50),
        firstP99: percentile(firsts, 99),
        sent,
        acked: putLatencies.length,
        rate: sent / seconds,
        expected,
        received: delivered(),
      });
    }
    return { subscribed, measured, rounds, closed };
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    for (const socket of raw) socket.terminate();
  }
}
