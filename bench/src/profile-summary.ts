/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by function, and by module both as self time and as
 * "inclusive" time (a sample counts once for every module on its stack), as a share of the non-idle samples.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/** A short module name for a script URL. */
export function moduleOf(url: string, repoRoot: string): string {
  if (url === '') return '(native / VM)';
  if (url.startsWith('node:')) return 'node core';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (path.startsWith(repoRoot + '/')) {
    const parts = path.slice(repoRoot.length + 1).split('/');
    if (parts[0] === 'packages' || parts[0] === 'subgraphs') return `coperto ${parts[0]}/${parts[1]}`;
    return `coperto ${parts[0]}`;
  }
  return path;
}

/** "name module :line", or "name path/in/repo.ts" for the project's own (tsx-compiled) files. */
function label(frame: ProfileNode['callFrame'], repoRoot: string): string {
  const name = frame.functionName || '(anonymous)';
  const path = frame.url.replace(/^file:\/\//, '');
  if (path.startsWith(repoRoot + '/') && !path.includes('/node_modules/')) {
    return `${name} ${path.slice(repoRoot.length + 1)}`;
  }
  const module = moduleOf(frame.url, repoRoot);
  const nm = path.lastIndexOf('/node_modules/');
  const file = nm >= 0 ? path.slice(nm + '/node_modules/'.length + module.length + 1) : '';
  return `${name} ${module}${file ? `/${file}` : ''}:${frame.lineNumber + 1}`;
}

export interface ProfileSummary {
  /** Samples that were not idle. */
  busySamples: number;
  seconds: number;
  busyShare: number;
  functions: Array<{ name: string; share: number }>;
  /** Functions by time on the stack (node core and the no-op OpenTelemetry wrappers left out). */
  inclusiveFunctions: Array<{ name: string; share: number }>;
  selfByModule: Array<{ name: string; share: number }>;
  inclusiveByModule: Array<{ name: string; share: number }>;
}

export function summarizeProfile(file: string, repoRoot: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const special = (n: ProfileNode) => /^\((idle|program|root)\)$/.test(n.callFrame.functionName);
  const idle = (n: ProfileNode) => n.callFrame.functionName === '(idle)';
  const self = new Map<string, number>();
  const selfModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const inclusiveFn = new Map<string, number>();
  let busy = 0;
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  for (const id of profile.samples) {
    const node = byId.get(id);
    if (!node || idle(node)) continue;
    busy++;
    const frame = node.callFrame;
    const module =
      special(node) || frame.functionName === '(garbage collector)'
        ? frame.functionName
        : moduleOf(frame.url, repoRoot);
    add(self, frame.url ? label(frame, repoRoot) : frame.functionName);
    add(selfModule, module);
    const seen = new Set<string>();
    const seenFn = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (special(n)) continue;
      const fnModule = moduleOf(n.callFrame.url, repoRoot);
      if (n.callFrame.url && fnModule !== 'node core' && fnModule !== '@opentelemetry/api') {
        const fn = label(n.callFrame, repoRoot);
        if (!seenFn.has(fn)) {
          seenFn.add(fn);
          add(inclusiveFn, fn);
        }
      }
      const m =
        n.callFrame.functionName === '(garbage collector)'
          ? '(garbage collector)'
          : moduleOf(n.callFrame.url, repoRoot);
      if (!seen.has(m)) {
        seen.add(m);
        add(inclusive, m);
      }
    }
  }
  const rank = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => ({ name, share: count / Math.max(1, busy) }));
  return {
    busySamples: busy,
    seconds: (profile.endTime - profile.startTime) / 1e6,
    busyShare: busy / Math.max(1, profile.samples.length),
    functions: rank(self, top),
    inclusiveFunctions: rank(inclusiveFn, 25),
    selfByModule: rank(selfModule, 12),
    inclusiveByModule: rank(inclusive, 12).filter((m) => m.name !== '(native / VM)'),
  };
}

export function profileMarkdown(name: string, summary: ProfileSummary): string {
  const pct = (s: number) => `${(s * 100).toFixed(1)} %`;
  const list = (items: Array<{ name: string; share: number }>) =>
    items.map((i) => `| ${i.name.replace(/\|/g, '\\|')} | ${pct(i.share)} |`).join('\n');
  return [
    `Profile of \`${name}\`: ${summary.seconds.toFixed(0)} s, busy ${pct(summary.busyShare)} of the samples ` +
      `(shares below are of the busy samples).`,
    '',
    '| top functions (self time) | share |',
    '| --- | --- |',
    list(summary.functions),
    '',
    '| functions, inclusive (time on the stack; node core and no-op OpenTelemetry wrappers left out) | share |',
    '| --- | --- |',
    list(summary.inclusiveFunctions),
    '',
    '| modules, self time | share |',
    '| --- | --- |',
    list(summary.selfByModule),
    '',
    '| modules, inclusive (on the stack) | share |',
    '| --- | --- |',
    list(summary.inclusiveByModule),
  ].join('\n');
}

/** The summary (markdown) of the busiest profile written into `dir` since `since`, or none. */
export function collectProfiles(
  dir: string,
  since: Date,
  repoRoot = join(import.meta.dirname, '..', '..'),
): string[] {
  if (!existsSync(dir)) return [];
  const summaries = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= since.getTime())
    .map((file) => ({ file, summary: summarizeProfile(file, repoRoot) }))
    .sort((a, b) => b.summary.busySamples - a.summary.busySamples);
  const busiest = summaries[0];
  if (!busiest) return [];
  return [profileMarkdown(`${basename(dir)}/${basename(busiest.file)}`, busiest.summary)];
}

// `node --import tsx bench/src/profile-summary.ts <file.cpuprofile> [repoRoot]` prints the summary.
if (import.meta.filename === process.argv[1]) {
  const [file, root] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [repoRoot]');
  console.log(profileMarkdown(file, summarizeProfile(file, root ?? process.cwd())));
}
