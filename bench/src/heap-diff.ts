/**
 * What a process holds more in a later V8 heap snapshot than in an earlier one of the same process, and where:
 * every object of the later snapshot whose id the earlier one lacks is new (a snapshot collects garbage first, so
 * only what is reachable counts); each new object is charged to the first object of the earlier snapshot found by
 * walking up its retainers (the first strong one each time), the point where the new bytes hang. Those points are
 * grouped by what they are and by the edge that holds them (e.g. `Map` in `LRUCache.keyMap`), largest first.
 *
 * `node --max-old-space-size=8192 --import tsx bench/src/heap-diff.ts before.heapsnapshot after.heapsnapshot`
 */
import { readFileSync } from 'node:fs';

/** How many retainers up a holder is described. */
const HOLDER_DEPTH = 3;

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface Attachment {
  /** The old object new objects hang from: its kind and the edge its own first retainer holds it by. */
  holder: string;
  bytes: number;
  objects: number;
}

function load(path: string): Snapshot {
  return JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
}

/** Ids of every object of a snapshot. */
function idsOf(s: Snapshot): Set<number> {
  const width = s.snapshot.meta.node_fields.length;
  const idAt = s.snapshot.meta.node_fields.indexOf('id');
  const ids = new Set<number>();
  for (let i = 0; i < s.nodes.length; i += width) ids.add(s.nodes[i + idAt]!);
  return ids;
}

/** The new bytes of `after` (objects whose id `before` lacks), by holder (pure over the two snapshots). */
export function attachments(before: Snapshot, after: Snapshot): { total: number; by: Attachment[] } {
  const old = idsOf(before);
  const meta = after.snapshot.meta;
  const width = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map(
    (f) => meta.node_fields.indexOf(f),
  ) as [number, number, number, number, number];
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) =>
    meta.edge_fields.indexOf(f),
  ) as [number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const count = after.nodes.length / width;
  // The first strong retainer of each node, and the edge's name.
  const parent = new Int32Array(count).fill(-1);
  const parentEdge = new Array<string>(count);
  let edge = 0;
  for (let n = 0; n < count; n++) {
    const edges = after.nodes[n * width + edgeCountAt]!;
    for (let e = 0; e < edges; e++, edge += edgeWidth) {
      const type = edgeTypes[after.edges[edge + edgeTypeAt]!];
      if (type === 'weak' || type === 'shortcut') continue;
      const to = after.edges[edge + toAt]! / width;
      if (parent[to] !== -1 || to === n) continue;
      parent[to] = n;
      const name = after.edges[edge + edgeNameAt]!;
      parentEdge[to] = type === 'element' || type === 'hidden' ? `[${name}]` : after.strings[name]!;
    }
  }
  const nameOf = (n: number) => {
    const type = nodeTypes[after.nodes[n * width + typeAt]!]!;
    const name = after.strings[after.nodes[n * width + nameAt]!]!;
    return type === 'object' || type === 'closure' ? name.slice(0, 60) : `(${type}) ${name.slice(0, 40)}`;
  };
  /** The node and its first retainers, `HOLDER_DEPTH` up: `Map in Context.entries in createCache.context`. */
  const describe = (n: number) => {
    const parts = [nameOf(n)];
    for (let depth = 0, at = n; depth < HOLDER_DEPTH && parent[at]! >= 0; depth++, at = parent[at]!) {
      parts.push(`${nameOf(parent[at]!)}.${parentEdge[at]}`);
    }
    return parts.join(' in ');
  };
  const isOld = (n: number) => old.has(after.nodes[n * width + idAt]!);
  // The old node each new node hangs from (memoised walk up the first retainers).
  const anchor = new Int32Array(count).fill(-2);
  const anchorOf = (start: number): number => {
    const path: number[] = [];
    let n = start;
    while (anchor[n] === -2 && !isOld(n) && parent[n] !== -1 && path.length < 10_000) {
      path.push(n);
      n = parent[n]!;
    }
    const found = anchor[n] !== -2 ? anchor[n]! : isOld(n) ? n : -1;
    for (const p of path) anchor[p] = found;
    return found;
  };
  const by = new Map<string, Attachment>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (isOld(n)) continue;
    const size = after.nodes[n * width + sizeAt]!;
    total += size;
    const a = anchorOf(n);
    const holder = a < 0 ? '(no old retainer)' : describe(a);
    const entry = by.get(holder) ?? { holder, bytes: 0, objects: 0 };
    entry.bytes += size;
    entry.objects += 1;
    by.set(holder, entry);
  }
  return { total, by: [...by.values()].sort((x, y) => y.bytes - x.bytes) };
}

if (process.argv[1]?.endsWith('heap-diff.ts')) {
  const [beforePath, afterPath, top = '25'] = process.argv.slice(2);
  if (!beforePath || !afterPath)
    throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [top]');
  const result = attachments(load(beforePath), load(afterPath));
  console.log(JSON.stringify({ total: result.total, by: result.by.slice(0, Number(top)) }, null, 1));
}
