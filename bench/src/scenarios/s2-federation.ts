/**
 * 2. The back-office GraphQL query through our gateway and through its peers, Hive Gateway (Node, with its default
 * runtime and with the Hive Router runtime), hive-router (Rust) and Apollo Router (Rust), all in front of the SAME
 * distributed subgraph processes. Each peer is compared twice:
 *
 * - equal work: in-flight deduplication of identical subgraph fetches off on both sides (our second gateway
 *   process with SUBGRAPH_FETCH_DEDUPE=false and GRAPHQL_READ_CACHE=false; Hive Gateway with `deduplicateInflightRequests: false` and a unique
 *   x-bench-request header propagated; hive-router with `traffic_shaping.all.dedupe_enabled: false`; Apollo Router
 *   with `traffic_shaping.all.deduplicate_query: false`, its default), so every client request costs each gateway
 *   its subgraph calls;
 * - at each gateway's defaults: deduplication on where it is the default (ours keyed by token, the Hive ones by the
 *   subgraph request; Apollo Router's is off by default and stays off), so 20 connections asking the same thing
 *   with one token can share subgraph calls; and ours answers from its read cache (GRAPHQL_READ_CACHE, on by
 *   default: nothing is written during the run, so every request after the first of each version is a hit), which
 *   none of the peers does by default (Hive Gateway's response cache is a plugin to configure, Apollo Router's
 *   entity cache an enterprise feature).
 */
import { createApi, graphql } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { loadRows } from '../load-rows.js';
import { startHive } from '../hive.js';
import { APOLLO_ROUTER_INSTALL, apolloRouterBin, startApolloRouter } from '../apollo-router.js';
import { HIVE_ROUTER_INSTALL, hiveRouterBin, startHiveRouter } from '../hive-router.js';
import { log } from '../log.js';
import type { Proc } from '../processes.js';
import { compare } from '../rounds.js';
import { seedTables } from '../seed.js';
import type { DistributedStack } from '../stack-distributed.js';
import { mintToken } from '../tokens.js';

export const BACK_OFFICE_QUERY = '{ sale { name tavoli { name seats status } } }';

interface Peer {
  /** "Hive Gateway", "Hive Gateway with the router runtime", "hive-router", "Apollo Router" */
  name: string;
  start(dedupe: boolean): Promise<{ proc: Proc; baseUrl: string; version: string }>;
  /** A note for its rows at the defaults (what its defaults are when they differ from the title's). */
  defaultsNote?: string;
}

interface Gateway {
  proc: Proc;
  baseUrl: string;
}

export const s2Title = (peer: string, dedupe: boolean) =>
  `2 back-office GraphQL query, 4 rooms / 60 tables: our gateway vs ${peer}, ` +
  (dedupe
    ? 'each at its defaults (in-flight deduplication on; ours answers from its read cache)'
    : 'deduplication off on both (equal work)');

export async function scenario2(ctx: BenchContext, stack: DistributedStack) {
  const { config } = ctx;
  const token = await mintToken(ctx.jwtSecret, 'bench-s2');
  await seedTables(createApi(stack.baseUrl, token), { rooms: 4, tables: 60 });
  const expected = JSON.stringify(
    await graphql<unknown>(`${stack.baseUrl}/graphql`, token, BACK_OFFICE_QUERY),
  );
  const bytes = JSON.stringify({ data: JSON.parse(expected) as unknown }).length;

  const peers: Peer[] = [
    {
      name: 'Hive Gateway',
      start: async (dedupe) => startHive(config, stack.subgraphUrls, { dedupe }),
    },
    {
      name: 'Hive Gateway with the router runtime',
      start: async (dedupe) => startHive(config, stack.subgraphUrls, { dedupe, routerRuntime: true }),
    },
  ];
  const builtPeers: Array<Peer & { missing: string | null }> = [
    {
      name: 'hive-router',
      start: async (dedupe) => startHiveRouter(config, stack.subgraphUrls, { dedupe }),
      missing: hiveRouterBin(config)
        ? null
        : `.cache/hive-router/bin/hive_router is missing (${HIVE_ROUTER_INSTALL} builds it, ≈30 min)`,
    },
    {
      name: 'Apollo Router',
      start: async (dedupe) => startApolloRouter(config, stack.subgraphUrls, { dedupe }),
      defaultsNote:
        'Apollo Router deduplicates no subgraph fetch by default (traffic_shaping.all.deduplicate_query)',
      missing: apolloRouterBin(config)
        ? null
        : `.cache/apollo-router/bin/router is missing (${APOLLO_ROUTER_INSTALL} builds it, ≈36 min)`,
    },
  ];
  for (const { missing, ...peer } of builtPeers) {
    if (!missing) {
      peers.push(peer);
      continue;
    }
    const reason = `${peer.name} skipped: ${missing}`;
    log(`s2: ${reason}`);
    ctx.rows.push(
      row({
        scenario: s2Title(peer.name, false),
        what: peer.name,
        ours: 'not run',
        baseline: 'n/a',
        ratio: 'n/a',
        notes: reason,
      }),
    );
  }

  let counter = 0;
  const job = (url: string, seconds: number) => ({
    baseUrl: url,
    requests: [
      {
        method: 'POST',
        path: '/graphql',
        headers: { authorization: `Bearer ${token}`, 'x-bench-request': `${counter++}-{{n}}` },
        body: JSON.stringify({ query: BACK_OFFICE_QUERY }),
      },
    ],
    connections: config.connections,
    seconds,
    maxRequests: seconds * 20_000,
  });

  /** One comparison: `ours` against `peer` started with deduplication on or off. */
  const versus = async (ours: Gateway, peer: Peer, dedupe: boolean) => {
    const scenario = s2Title(peer.name, dedupe);
    const notRun = (reason: string) =>
      ctx.rows.push(
        row({ scenario, what: peer.name, ours: 'not run', baseline: 'n/a', ratio: 'n/a', notes: reason }),
      );
    let theirs: Awaited<ReturnType<Peer['start']>>;
    try {
      theirs = await peer.start(dedupe);
    } catch (error) {
      log(`s2: ${peer.name} could not be started: ${(error as Error).message.slice(0, 2000)}`);
      notRun((error as Error).message.split('\n')[0]!);
      return;
    }
    try {
      // Both must answer the scenario's query with the token, and the same, before anything is measured.
      const answer = JSON.stringify(
        await graphql<unknown>(`${theirs.baseUrl}/graphql`, token, BACK_OFFICE_QUERY),
      );
      const ourAnswer = JSON.stringify(
        await graphql<unknown>(`${ours.baseUrl}/graphql`, token, BACK_OFFICE_QUERY),
      );
      const same = answer === expected && ourAnswer === expected;
      log(
        `s2: ${peer.name} ${theirs.version} up (dedupe ${dedupe ? 'on' : 'off'}); answers ${same ? 'identical' : 'DIFFERENT'}`,
      );
      const { a, b } = await compare(
        config,
        `s2 ${peer.name} dedupe ${dedupe ? 'on' : 'off'}`,
        {
          label: 'ours',
          processes: [ours.proc, stack.subgraphs.sala, stack.subgraphs.tavolo],
          run: (seconds) => ctx.load.http(job(ours.baseUrl, seconds)),
        },
        {
          label: peer.name,
          processes: [theirs.proc, stack.subgraphs.sala, stack.subgraphs.tavolo],
          run: (seconds) => ctx.load.http(job(theirs.baseUrl, seconds)),
        },
      );
      ctx.rows.push(
        ...loadRows(scenario, a, b, {
          baselineLabel: `${peer.name} ${theirs.version}`,
          notes: [
            `${bytes} B response${same ? ', same data' : ', DIFFERENT data'}`,
            ...(dedupe && peer.defaultsNote ? [peer.defaultsNote] : []),
          ],
          cpu: { what: 'gateway CPU per request', ours: [ours.proc.name], baseline: [theirs.proc.name] },
        }),
      );
    } catch (error) {
      log(
        `s2: ${peer.name} (dedupe ${dedupe ? 'on' : 'off'}) failed: ${(error as Error).stack ?? String(error)}`,
      );
      notRun((error as Error).message.split('\n')[0]!);
    } finally {
      await theirs.proc.stop();
    }
  };

  // Equal work first, on a second gateway process of ours without deduplication; then each at its defaults.
  const equal = await stack.startGateway('gateway-no-dedupe', {
    SUBGRAPH_FETCH_DEDUPE: 'false',
    GRAPHQL_READ_CACHE: 'false',
  });
  try {
    for (const peer of peers) await versus(equal, peer, false);
  } finally {
    await equal.proc.stop();
  }
  for (const peer of peers) await versus({ proc: stack.gateway, baseUrl: stack.baseUrl }, peer, true);

  ctx.method.push(
    `**2.** \`${BACK_OFFICE_QUERY}\` (sala subgraph, then tavolo for Sala.tavoli) over ${config.connections} ` +
      `connections, one token, to our gateway (COPERTO_MODE=distributed, compiled) and to four peers over the same ` +
      `subgraph processes, each started on the committed supergraph with its routing URLs patched and ` +
      `Authorization propagated: \`hive-gateway supergraph\` (NODE_ENV=production, no --jit), once with its default runtime and once with ` +
      `\`--hive-router-runtime\` (@graphql-hive/router-runtime: hive-router's query planner as a native addon), and ` +
      `hive-router (the Rust router, from a router.config.yaml with \`supergraph: {source: file, path}\`, ` +
      `\`http: {host, port}\`, \`headers.all.request: [{propagate: {named: authorization}}]\`, log level warn), ` +
      `and Apollo Router 2.17.0 (router.yaml with \`supergraph: {listen, path: /graphql}\`, \`health_check.listen\`, ` +
      `the same header propagation, --log warn, anonymous telemetry off, no GraphOS key or license). ` +
      `Each peer twice. **Equal work** ("deduplication off"): our gateway started with ` +
      `SUBGRAPH_FETCH_DEDUPE=false and GRAPHQL_READ_CACHE=false, Hive Gateway with \`deduplicateInflightRequests: false\` and a per-request ` +
      `x-bench-request header propagated, hive-router with \`traffic_shaping.all.dedupe_enabled: false\`, Apollo ` +
      `Router with \`traffic_shaping.all.deduplicate_query: false\`, so ` +
      `every request makes its two subgraph calls. **Defaults**: each gateway's in-flight deduplication on ` +
      `(ours keyed by token, Hive Gateway's and hive-router's by the subgraph request, headers included; ` +
      `hive-router's inbound deduplication, off by default, stays off; Apollo Router deduplicates nothing by default, ` +
      `so its two rows differ only on our side), so concurrent identical requests of one ` +
      `token share subgraph calls, and ours answers from its GraphQL read cache (GRAPHQL_READ_CACHE, on by default; ` +
      `no write happens during the run, so nearly every request is a hit: the equal-work rows are the ones that ` +
      `compare the engines). Gateway CPU per request counts the gateway process only; the subgraphs' share, ` +
      `in the notes, shows how many calls were saved.`,
  );
}
