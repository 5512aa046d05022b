/**
 * hive-router (The Guild's federation router in Rust, crate `hive-router` 0.2.19) as a peer of our
 * gateway in scenario 2, over the SAME subgraph processes: the committed supergraph with its routing URLs patched
 * to the running subgraphs, from a `router.config.yaml` written into a temporary directory for each start. It is
 * not an npm package: `pnpm bench:hive-router` builds it once into .cache/hive-router/ (cargo, ≈30 min on 2
 * cores); when the binary is missing the bench says so in one line and skips it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { binaryCrateVersion, cachedBinary, writePatchedSupergraph } from './cargo-binary.js';
import { freePort } from './ports.js';
import { httpOk, spawnProcess, waitUntil, type Proc } from './processes.js';

export const HIVE_ROUTER_INSTALL = 'pnpm bench:hive-router';

export interface HiveRouter {
  proc: Proc;
  baseUrl: string;
  version: string;
  /** The config file it was started with (for the method notes and the log). */
  configText: string;
}

export interface RouterConfigOptions {
  supergraphPath: string;
  port: number;
  /**
   * false: identical subgraph fetches in flight at once each run (`traffic_shaping.all.dedupe_enabled: false`,
   * equal work); true: the router's default, which coalesces them.
   */
  dedupe: boolean;
}

/**
 * The router.config.yaml of one start (keys of hive-router 0.2.19: src/config/*.rs). Only what the
 * comparison needs is set; everything else stays at the router's defaults (inbound request deduplication,
 * `traffic_shaping.router.dedupe`, is off by default in 0.2.19, as in 0.2.0). Strings are written as JSON strings, which
 * YAML reads as double-quoted scalars.
 */
export function routerConfigYaml(options: RouterConfigOptions): string {
  const lines = [
    '# Written by bench/src/hive-router.ts for one run.',
    'supergraph:',
    '  source: file',
    `  path: ${JSON.stringify(options.supergraphPath)}`,
    'http:',
    '  host: "127.0.0.1"',
    `  port: ${options.port}`,
    'log:',
    '  level: warn',
    'headers:',
    '  all:',
    '    request:',
    '      - propagate:',
    '          named: authorization',
  ];
  if (!options.dedupe) lines.push('traffic_shaping:', '  all:', '    dedupe_enabled: false');
  return `${lines.join('\n')}\n`;
}

/** Where `pnpm bench:hive-router` installs the binary. */
export const hiveRouterBin = (config: BenchConfig): string | null =>
  cachedBinary(config, 'hive-router', 'hive_router');

export const hiveRouterVersion = (config: BenchConfig): string | null =>
  binaryCrateVersion(hiveRouterBin(config), 'hive-router');

export async function startHiveRouter(
  config: BenchConfig,
  urls: Record<string, string>,
  options: { dedupe: boolean },
): Promise<HiveRouter> {
  const bin = hiveRouterBin(config);
  if (!bin) throw new Error(`hive-router is not built (${HIVE_ROUTER_INSTALL})`);
  const dir = join(config.tmpDir, `hive-router-${options.dedupe ? 'defaults' : 'no-dedupe'}`);
  const supergraphPath = writePatchedSupergraph(config, dir, urls);
  const port = await freePort();
  const configText = routerConfigYaml({ supergraphPath, port, dedupe: options.dedupe });
  const configFile = join(dir, 'router.config.yaml');
  writeFileSync(configFile, configText);
  const proc = spawnProcess('hive-router', bin, [], {
    cwd: dir,
    env: { ROUTER_CONFIG_FILE_PATH: configFile },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(proc, 'readiness', httpOk(`${baseUrl}/readiness`), 60_000);
  return { proc, baseUrl, version: hiveRouterVersion(config) ?? '?', configText };
}
