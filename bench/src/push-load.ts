/**
 * Scenario 4's client side: `sockets` graphql-ws connections subscribed to tableStatusChanged, and an open-loop
 * stream of `PUT /api/tavoli/:id/status` at `rate` per second. Each PUT carries a unique orderId, which the
 * event echoes (data.orderId), so every delivery is matched to the moment its PUT was sent: push latency =
 * event received at a socket − PUT sent; PUT latency = response − PUT sent. Same process, same clock.
 */
import { loadGraphQLWs, loadWebSocket, type GraphQLWsClient } from './deps.js';
import type { PushJob, PushResult, PushRound } from './load-types.js';
import { percentile, sortedCopy } from './stats.js';

const SUBSCRIPTION = 'subscription { tableStatusChanged { data { orderId } } }';
const STATUSES = ['occupied', 'open'] as const;
const MAX_IN_FLIGHT = 64;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runPush(job: PushJob): Promise<PushResult> {
  const { createClient } = await loadGraphQLWs();
  const WebSocket = await loadWebSocket();
  const sentAt = new Map<string, number>();
  const warmed = new Set<number>();
  const closed: Record<string, number> = {};
  let pushLatencies: number[] = [];
  let received = 0;

  const clients: GraphQLWsClient[] = [];
  for (let i = 0; i < job.sockets; i++) {
    const client = createClient({
      url: job.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${job.token}` },
      lazy: false,
      retryAttempts: 0,
    });
    client.on('closed', (event) => {
      const code = String((event as { code?: number }).code ?? '?');
      closed[code] = (closed[code] ?? 0) + 1;
    });
    client.subscribe(
      { query: SUBSCRIPTION },
      {
        next: (value) => {
          const now = performance.now();
          const data = value.data as
            { tableStatusChanged?: { data?: { orderId?: string | null } } } | undefined;
          const orderId = data?.tableStatusChanged?.data?.orderId ?? '';
          const sent = sentAt.get(orderId);
          if (sent !== undefined) {
            pushLatencies.push(now - sent);
            received++;
          } else if (orderId.startsWith('warm-')) warmed.add(i);
        },
        error: () => {},
        complete: () => {},
      },
    );
    clients.push(client);
  }

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
    // Warm-up: status changes until every socket has seen one (its subscription is live), 20 s at most.
    const warmUntil = Date.now() + 20_000;
    for (let k = 0; warmed.size < job.sockets && Date.now() < warmUntil; k++) {
      void put(`warm-${k}`);
      await sleep(50);
    }
    const subscribed = warmed.size;
    await sleep(500);

    const rounds: PushRound[] = [];
    // Round -1 is a warm-up at full rate (JIT, pools), not reported.
    for (let round = -1; round < job.rounds; round++) {
      const roundSeconds = round < 0 ? job.warmupSeconds : job.seconds;
      pushLatencies = [];
      received = 0;
      sentAt.clear();
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
      const graceUntil = performance.now() + 5000;
      while (received < expected && performance.now() < graceUntil) await sleep(20);
      await sleep(1000);
      if (round < 0) continue;
      const puts = sortedCopy(putLatencies);
      const pushes = sortedCopy(pushLatencies);
      rounds.push({
        putP50: percentile(puts, 50),
        putP99: percentile(puts, 99),
        pushP50: percentile(pushes, 50),
        pushP99: percentile(pushes, 99),
        sent,
        acked: putLatencies.length,
        rate: sent / seconds,
        expected,
        received,
      });
    }
    return { subscribed, rounds, closed };
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
  }
}
