/**
 * bundle(): one TypeScript entry point and everything it imports, compiled
 * by esbuild into one ES module with a linked source map. Shared by the
 * deployable artifacts (build-server.ts, build-lambda.ts) and the benchmark.
 *
 * Output layout mirrors the repository, so that src/graphql/server.ts finds
 * `../../schema.graphql` two folders above the bundle:
 *   <outDir>/src/transport/<name>.mjs (+ .mjs.map)
 *   <outDir>/src/transport/chunks/*.mjs   code loaded by dynamic import() only
 *   <outDir>/schema.graphql
 *   <outDir>/schema.demo.json  its demo data (src/transport/demoData.ts)
 *   <outDir>/package.json      {"type":"module"}
 *
 * Code splitting: what the sources load with a dynamic `import()` (the
 * OpenTelemetry SDK, src/telemetry/otel.ts) becomes a chunk of its own, so
 * a process that never loads it never reads or parses it. OpenTelemetry's
 * packages are bundled from their ES module builds (their package.json
 * `module`), which esbuild can tree-shake; their CommonJS builds (`main`,
 * esbuild's default for Node) would pull every export of the semantic
 * conventions and of each package into the chunk.
 *
 * esbuild comes with tsx (a dependency), so nothing extra is installed.
 * Packages are bundled too (the AWS SDK included: the artifact runs exactly
 * the versions the tests ran), except `external` ones, which the artifact
 * resolves from a node_modules above it at run time.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { APOLLO_SERVER_VERSION } from './bundleShims/makeGatewayGraphQLRequestContext.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface BundleOptions {
  /** Entry point, relative to the repository root. */
  entry: string;
  outDir: string;
  /** File name of the bundle without `.mjs`. */
  name: string;
  /** Folder of the bundle inside outDir (default `src/transport`, two folders below schema.graphql). */
  folder?: string;
  /** Empty outDir first (default true); false adds a second bundle beside an earlier one. */
  clean?: boolean;
  minify?: boolean;
  external?: string[];
}

/**
 * Modules replaced in bundles by a file of scripts/bundleShims/ (same
 * exports, same results; each shim says why):
 * - `@apollo/utils.createhash` would hash every query with a JavaScript
 *   SHA-256 inside an ES module bundle;
 * - Apollo Server's `utils/makeGatewayGraphQLRequestContext.js` gives every
 *   operation's objects to V8's old generation (a per-call getter). Written
 *   for one Apollo Server release: bundling with another one fails until the
 *   shim is compared with that release's file and its version updated.
 */
const SHIMS_DIR = join(root, 'scripts/bundleShims');
const GATEWAY_CONTEXT = /(^|\/)utils\/makeGatewayGraphQLRequestContext(\.js)?$/;

const shims: Plugin = {
  name: 'shims',
  setup(build) {
    build.onResolve({ filter: /^@apollo\/utils\.createhash$/ }, () => ({ path: join(SHIMS_DIR, 'createHash.ts') }));
    build.onResolve({ filter: GATEWAY_CONTEXT }, (args) => {
      if (!/[\\/]@apollo[\\/]server[\\/]dist[\\/]/.test(args.importer)) return undefined;
      const installed = JSON.parse(readFileSync(join(root, 'node_modules/@apollo/server/package.json'), 'utf8')).version;
      if (installed !== APOLLO_SERVER_VERSION) {
        throw new Error(
          `scripts/bundleShims/makeGatewayGraphQLRequestContext.ts was written for @apollo/server ${APOLLO_SERVER_VERSION}, ` +
            `but ${installed} is installed: compare it with that release's dist/esm/utils/makeGatewayGraphQLRequestContext.js and update APOLLO_SERVER_VERSION`,
        );
      }
      return { path: join(SHIMS_DIR, 'makeGatewayGraphQLRequestContext.ts') };
    });
  },
};

/** `@opentelemetry/*` from its ES module build (see the module comment). */
const openTelemetryEsm: Plugin = {
  name: 'opentelemetry-esm',
  setup(build) {
    build.onResolve({ filter: /^@opentelemetry\/[^/]+$/ }, async (args) => {
      if (args.pluginData === 'otel-esm') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'otel-esm' });
      if (resolved.errors.length > 0) return resolved;
      const at = resolved.path.lastIndexOf(`${args.path.replace('/', sep)}${sep}`);
      if (at < 0) return resolved;
      const dir = resolved.path.slice(0, at + args.path.length);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { module?: string };
      return pkg.module ? { path: join(dir, pkg.module) } : resolved;
    });
  },
};

/** Builds the bundle; returns the path of the .mjs file. */
export async function bundle({
  entry,
  outDir,
  name,
  folder = 'src/transport',
  clean = true,
  minify = false,
  external = [],
}: BundleOptions): Promise<string> {
  if (clean) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, folder), { recursive: true });
  const outfile = join(outDir, folder, `${name}.mjs`);
  await build({
    entryPoints: [join(root, entry)],
    outdir: join(outDir, folder),
    entryNames: name,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify,
    // No keepNames: unminified code keeps its names anyway, and keepNames wraps every function
    // and closure in a __name() call at creation (per request for per-request closures).
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies call require() for Node built-ins; an ES module bundle needs one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    external,
    plugins: [shims, openTelemetryEsm],
  });
  copyFileSync(join(root, 'schema.graphql'), join(outDir, 'schema.graphql'));
  copyFileSync(join(root, 'schema.demo.json'), join(outDir, 'schema.demo.json'));
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');
  return outfile;
}

/** True when this module runs as the command (`tsx scripts/x.ts`), not imported. */
export const isMain = (url: string) => Boolean(process.argv[1]) && resolve(process.argv[1]!) === fileURLToPath(url);
