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
 * Dependencies are bundled as installed, patches included (patches/,
 * applied by `npm ci`/`npm install`; docs/runtime.md): `npm start`, the
 * tests and the bundles run the same code, and bundling an unpatched
 * node_modules is refused.
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
import { validateSchema } from 'graphql';
import { patchProblems } from './patches.js';
import { loadModel, modelFingerprint } from '../src/declaration/loadModel.js';

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
  /** Where to write esbuild's metafile (what each output holds, and why each input is in it), for analysis; none by default. */
  metafile?: string;
}

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

/**
 * The OTLP exporters load `http`/`https` with a dynamic `import()`. Node's ES
 * module facade of `node:http` reads every export of the module, and on
 * Node 24 one of them loads undici, Node's fetch implementation (about
 * 15 ms of a cold start, paid by the first export of a Lambda invocation).
 * In the bundles those imports become `require()` of the same module (the
 * same object, without the facade).
 */
const exporterHttpRequire: Plugin = {
  name: 'exporter-http-require',
  setup(build) {
    build.onLoad({ filter: /[\\/]@opentelemetry[\\/]otlp-exporter-base[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!/import\('https?'\)/.test(text)) return undefined;
      return { contents: text.replace(/import\('(https?)'\)/g, "Promise.resolve(require('node:$1'))"), loader: 'js' };
    });
  },
};

/**
 * One Apollo Server in a bundle. `@as-integrations/aws-lambda` is CommonJS
 * and `require()`s `@apollo/server` for its `HeaderMap` alone; esbuild would
 * resolve that to Apollo's CommonJS build, a second copy of Apollo Server
 * (with CommonJS copies of @graphql-tools and the usage-reporting protobuf
 * code) beside the ES module build the gateway imports, evaluated at every
 * cold start. Resolved as an import instead, the require gets the same
 * release's ES module build, the one the rest of the bundle uses.
 */
const oneApolloServer: Plugin = {
  name: 'one-apollo-server',
  setup(build) {
    build.onResolve({ filter: /^@apollo\/server(\/.*)?$/ }, async (args) => {
      if (args.kind !== 'require-call' || args.pluginData === 'one-apollo-server') return undefined;
      return build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, importer: args.importer, pluginData: 'one-apollo-server' });
    });
  },
};

/**
 * The model file the bundle ships (schema.graphql), validated in full here,
 * as a process would at start-up (graphql's SDL rules, the model's own
 * checks, graphql's type-system validation): a model with problems is not
 * bundled. Its fingerprint goes into the bundle, so that a process serving
 * exactly this text does not validate it again (src/declaration/loadModel.ts).
 */
function validatedModel(file: string): string {
  const model = loadModel(file, []);
  const errors = validateSchema(model.schema);
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  return modelFingerprint(readFileSync(file, 'utf8'));
}

/** Builds the bundle; returns the path of the .mjs file. */
export async function bundle({
  entry,
  outDir,
  name,
  folder = 'src/transport',
  clean = true,
  minify = false,
  external = [],
  metafile,
}: BundleOptions): Promise<string> {
  // The bundle runs the dependencies the tests ran: patched as patches/ says (scripts/patches.ts).
  const unpatched = patchProblems(root);
  if (unpatched.length > 0) throw new Error(`cannot bundle an unpatched node_modules:\n${unpatched.join('\n')}`);
  const validated = [validatedModel(join(root, 'schema.graphql'))];
  if (clean) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, folder), { recursive: true });
  const outfile = join(outDir, folder, `${name}.mjs`);
  const result = await build({
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
    define: { __VALIDATED_MODELS__: JSON.stringify(validated) },
    plugins: [oneApolloServer, openTelemetryEsm, exporterHttpRequire],
    metafile: metafile !== undefined,
  });
  if (metafile !== undefined) writeFileSync(metafile, JSON.stringify(result.metafile));
  copyFileSync(join(root, 'schema.graphql'), join(outDir, 'schema.graphql'));
  copyFileSync(join(root, 'schema.demo.json'), join(outDir, 'schema.demo.json'));
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');
  return outfile;
}

/** True when this module runs as the command (`tsx scripts/x.ts`), not imported. */
export const isMain = (url: string) => Boolean(process.argv[1]) && resolve(process.argv[1]!) === fileURLToPath(url);
