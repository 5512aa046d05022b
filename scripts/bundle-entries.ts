// The bundling step of `pnpm build` (scripts/build.ts): after the per-file compilation, each process entry point
// (gateway/dist/index.js, subgraphs/<name>/dist/index.js) becomes one ESM file holding its whole module graph —
// the workspace's compiled modules (through the `compiled` condition) and the npm dependencies — so that a start
// reads and compiles one file instead of resolving, reading and compiling ≈ 1,500 (docs/architecture.md,
// "Start-up": CPU to ready of the embedded process 2.28–2.37 s → 1.43–1.50 s by this step alone). What is imported
// only on demand (import(): the MongoDB, NATS and Redis adapters) goes to dist/chunk-*.js beside it. The per-file
// entry it is made from stays as dist/unbundled.js (the baseline of bench scenario 9).
//
// The native addon (lmdb, which loads msgpackr-extract itself) stays an import resolved at run time, through the
// node_modules of the workspace package that imports it. Files read at run time relative to a module (a
// subgraph's schema.graphql, the gateway's public/ pages and vendor/ files, the root package.json, a dependency's
// own package.json) keep their one path in the source: each module's import.meta.* / __dirname / __filename is
// its own file in the tree (perModuleLocation below). Whitespace is minified (idle RSS 136 → 122–130 MB: V8 keeps
// the source text for lazy compilation); there is no source map (25 MB, twice the build time).
import { build, type Plugin } from 'esbuild';
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Kept out of the bundle: the native addon (it loads msgpackr-extract, its own dependency, itself). */
export const EXTERNAL_PACKAGES = ['lmdb'];

const toPosix = (path: string) => path.split(sep).join('/');
/** A relative import specifier from `fromDir` to `path`. */
const specifier = (fromDir: string, path: string) => {
  const rel = toPosix(relative(fromDir, path));
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/**
 * An external package is imported by a workspace package (packages/store imports lmdb), not by the process's
 * own package: the bundle imports it by a relative path through the importing package's node_modules link
 * (packages/store/node_modules/lmdb/…), which the production install (scripts/runtime-tree.ts) lays out too.
 */
function externalsThroughTheirImporter(bundleDir: string): Plugin {
  const filter = new RegExp(`^(${EXTERNAL_PACKAGES.join('|')})(/.*)?$`);
  return {
    name: 'externals-through-their-importer',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        const name = filter.exec(args.path)![1]!;
        const linkDir = join(packageDirOf(args.resolveDir), 'node_modules', name);
        const inPackage = relative(realpathSync(linkDir), resolved.path);
        return { path: specifier(bundleDir, join(linkDir, inPackage)), external: true };
      });
    },
  };
}

/** The nearest directory at or above `dir` holding a package.json. */
function packageDirOf(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'package.json'))) return current;
    if (dirname(current) === current) throw new Error(`no package.json above ${dir}`);
  }
}

/** Defined once at the top of each bundle: its `require` and its directory at run time. */
const BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { join as __bundleJoin } from 'node:path';",
  "import { fileURLToPath as __bundleFileToPath, pathToFileURL as __bundlePathToUrl } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  "const __bundleDir = __bundleFileToPath(new URL('.', import.meta.url));",
].join('\n');

/** What a module uses to find files beside it: ESM's import.meta.*, CommonJS's __dirname and __filename. */
const LOCATION_TOKENS =
  /import\.meta\.(?:url|dirname|filename)\b|(?<![.\w$])__(?:dirname|filename)(?![\w$])/g;

/**
 * Gives every bundled module (the workspace's and the dependencies') its own location: `import.meta.url`,
 * `import.meta.dirname`, `import.meta.filename`, `__dirname` and `__filename` become the module's file in the
 * tree the bundle sits in, computed from the bundle's own directory at run time (so the tree can be moved, as the
 * images do). A workspace module is thus where it is in the per-file layout (dist/x.js), a dependency where it
 * is in node_modules.
 */
function perModuleLocation(bundleDir: string): Plugin {
  return {
    name: 'per-module-location',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (source.search(LOCATION_TOKENS) === -1) return undefined;
        const file = `__bundleJoin(__bundleDir, ${JSON.stringify(toPosix(relative(bundleDir, args.path)))})`;
        const dir = `__bundleJoin(__bundleDir, ${JSON.stringify(toPosix(relative(bundleDir, dirname(args.path))))})`;
        const contents = source.replace(LOCATION_TOKENS, (token) => {
          if (token.endsWith('url')) return `__bundlePathToUrl(${file}).href`;
          return token.endsWith('dirname') ? dir : file;
        });
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Bundles `<pkg>/dist/index.js` in place (the per-file entry is kept as dist/unbundled.js). CommonJS dependencies
 * get a real `require` (createRequire) for the Node built-ins and externals they load.
 */
export async function bundleEntry(pkg: string): Promise<void> {
  const dist = join(pkg, 'dist');
  const entry = join(dist, 'index.js');
  const unbundled = join(dist, 'unbundled.js');
  // The per-file entry keeps its source map under its new name.
  const perFileSource = readFileSync(entry, 'utf8');
  writeFileSync(
    unbundled,
    perFileSource.replace(
      /\/\/# sourceMappingURL=index\.js\.map\s*$/,
      '//# sourceMappingURL=unbundled.js.map\n',
    ),
  );
  rmSync(entry);
  if (existsSync(`${entry}.map`)) renameSync(`${entry}.map`, `${unbundled}.map`);
  const result = await build({
    entryPoints: { index: unbundled },
    outdir: dist,
    bundle: true,
    // The distributed mode's adapters (MongoDB, NATS, Redis), imported with import() only when configured, go
    // to chunks of their own beside the bundle: the embedded process never reads or compiles them.
    splitting: true,
    chunkNames: 'chunk-[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['compiled'],
    plugins: [externalsThroughTheirImporter(dist), perModuleLocation(dist)],
    banner: { js: BANNER },
    sourcemap: false,
    legalComments: 'none',
    minifyWhitespace: true,
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
}
