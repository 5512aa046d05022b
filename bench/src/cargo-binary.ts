/**
 * What the Rust routers of scenario 2 (hive-router, Apollo Router) share: the binary `cargo install` put under
 * .cache/<dir>/bin, the crate version compiled into it, and the committed supergraph patched to the running
 * subgraphs, written into the router's run directory.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { patchSupergraph } from './hive.js';

/** The binary `cargo install --root .cache/<dir>` installed, or null when it is not built. */
export function cachedBinary(config: BenchConfig, dir: string, name: string): string | null {
  const bin = join(config.repoRoot, '.cache', dir, 'bin', name);
  return existsSync(bin) ? bin : null;
}

/** The version of `crate` compiled into a binary (its panic locations name the crate's source directory). */
export function crateVersionInBinary(bytes: Buffer, crate: string): string | null {
  const match = new RegExp(`${crate}-(\\d+\\.\\d+\\.\\d+)[/\\\\]src[/\\\\]`).exec(bytes.toString('latin1'));
  return match ? match[1]! : null;
}

const versions = new Map<string, string | null>();

/** `crate`'s version in the binary at `bin` (read once per binary), or null when there is none. */
export function binaryCrateVersion(bin: string | null, crate: string): string | null {
  if (bin === null) return null;
  if (!versions.has(bin)) versions.set(bin, crateVersionInBinary(readFileSync(bin), crate));
  return versions.get(bin)!;
}

/** Creates `dir` and writes the committed supergraph there with its routing URLs patched; returns its path. */
export function writePatchedSupergraph(
  config: BenchConfig,
  dir: string,
  urls: Record<string, string>,
): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'supergraph.graphql');
  writeFileSync(
    path,
    patchSupergraph(readFileSync(join(config.repoRoot, 'supergraph.graphql'), 'utf8'), urls),
  );
  return path;
}
