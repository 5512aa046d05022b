/**
 * 2. The back-office GraphQL query through our gateway and through Hive Gateway, both in front of the SAME
 * distributed subgraph processes. Every request carries a unique x-bench-request header (and Hive's in-flight
 * deduplication is off), so neither gateway can answer several requests with one subgraph call.
 */
import { createApi, graphql } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { loadRows } from '../load-rows.js';
import { startHive, type HiveGateway } from '../hive.js';
import { log } from '../log.js';
import { compare } from '../rounds.js';
import { seedTables } from '../seed.js';
import type { DistributedStack } from '../stack-distributed.js';
import { mintToken } from '../tokens.js';

export const BACK_OFFICE_QUERY = '{ sale { name tavoli { name seats status } } }';

export async function scenario2(ctx: BenchContext, stack: DistributedStack) {
  const { config } = ctx;
  const scenario = '2 back-office GraphQL query, 4 rooms / 60 tables: our gateway vs Hive Gateway';
  const token = await mintToken(ctx.jwtSecret, 'bench-s2');
  await seedTables(createApi(stack.baseUrl, token), { rooms: 4, tables: 60 });

  let hive: HiveGateway;
  try {
    hive = await startHive(config, stack.subgraphUrls);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]!;
    log(`s2: Hive Gateway could not be started: ${(error as Error).message.slice(0, 2000)}`);
    ctx.rows.push(
      row({ scenario, what: 'Hive Gateway', ours: 'not run', baseline: 'n/a', ratio: 'n/a', notes: reason }),
    );
    return;
  }
  const ours = await graphql<unknown>(`${stack.baseUrl}/graphql`, token, BACK_OFFICE_QUERY);
  let theirs: unknown;
  try {
    theirs = await graphql<unknown>(`${hive.baseUrl}/graphql`, token, BACK_OFFICE_QUERY);
  } catch (error) {
    ctx.rows.push(
      row({
        scenario,
        what: 'Hive Gateway',
        ours: 'not run',
        baseline: 'n/a',
        ratio: 'n/a',
        notes: (error as Error).message,
      }),
    );
    await hive.proc.stop();
    return;
  }
  const same = JSON.stringify(ours) === JSON.stringify(theirs);
  const bytes = JSON.stringify({ data: ours }).length;
  log(`s2: Hive Gateway ${hive.version} up; answers ${same ? 'identical' : 'DIFFERENT'} (${bytes} B)`);

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
  const { a, b } = await compare(
    config,
    's2',
    {
      label: 'ours',
      processes: [stack.gateway, stack.subgraphs.sala, stack.subgraphs.tavolo],
      run: (seconds) => ctx.load.http(job(stack.baseUrl, seconds)),
    },
    {
      label: 'hive',
      processes: [hive.proc, stack.subgraphs.sala, stack.subgraphs.tavolo],
      run: (seconds) => ctx.load.http(job(hive.baseUrl, seconds)),
    },
  );
  await hive.proc.stop();
  ctx.rows.push(
    ...loadRows(scenario, a, b, {
      baselineLabel: `Hive ${hive.version}`,
      notes: [`${bytes} B response${same ? ', same data' : ', DIFFERENT data'}`],
      cpu: { what: 'gateway CPU per request', ours: [stack.gateway.name], baseline: [hive.proc.name] },
    }),
  );
  ctx.method.push(
    `**2.** \`${BACK_OFFICE_QUERY}\` (sala subgraph, then tavolo for Sala.tavoli) over ${config.connections} ` +
      `connections to our gateway (COPERTO_MODE=distributed) and to \`hive-gateway supergraph\` ${hive.version} ` +
      `(NODE_ENV=production, default runtime, no --jit) on the committed supergraph with routing URLs patched to ` +
      `the same subgraph processes; Authorization and a per-request x-bench-request header propagated, ` +
      `\`deduplicateInflightRequests: false\`.`,
  );
}
