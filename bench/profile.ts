/**
 * `npx tsx bench/profile.ts <dir> [--top 25] [--skip-ms 8000]`: a summary of the CPU
 * profiles that `BENCH_CPU_PROF=<dir> npm run bench -- --only <case>`
 * writes (one directory per server: <dir>/gateway, <dir>/direct, …).
 *
 * Self time of every sampled function is attributed to a component by the
 * source file it comes from. The servers run a bundle, so positions are
 * mapped back through the bundle's source map (node:module SourceMap) to
 * the original file (`src/…`, `node_modules/<package>/…`). Printed as
 * Markdown: per server, time by component and the top functions.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMap } from 'node:module';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMap | null>();
function sourceMapFor(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url)!;
}

/** The original source file of a frame: mapped through the bundle's source map when there is one. */
function sourceOf(frame: CallFrame): string {
  if (!frame.url) return '';
  const map = sourceMapFor(frame.url);
  if (map && frame.lineNumber >= 0) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
    if (entry?.originalSource) return entry.originalSource.replace(/^.*?(node_modules\/|src\/|bench\/)/, '$1');
  }
  return frame.url.replace(/^file:\/\/.*?(node_modules\/|src\/|bench\/)/, '$1');
}

/** Component of a source file: the npm package, our folder, Node's core, or the engine. */
export function componentOf(frame: CallFrame, source: string): string {
  const name = frame.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)' || name === '(idle)' || name === '(root)') return name;
  // No script: V8 builtins and native bindings (lineNumber -1), or code made by `new Function` (graphql-jit's compiled queries).
  if (!frame.url) return name.startsWith('(') ? name : frame.lineNumber >= 0 ? 'eval code (graphql-jit compiled queries)' : 'V8 builtins / native';
  if (source.startsWith('node:')) return `Node core (${source.slice(5).split('/')[0]})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) {
    const p = pkg[1]!;
    if (p.startsWith('@aws-sdk/') || p.startsWith('@smithy/') || p.startsWith('@aws-crypto/')) return 'AWS SDK';
    if (p.startsWith('@apollo/')) return 'Apollo Server';
    return p;
  }
  const ours = /^(src|bench)\/(?:([^/]+)\/)?/.exec(source);
  if (ours) return ours[2] && !ours[2].includes('.') ? `${ours[1]}/${ours[2]}` : ours[1]!;
  return 'other';
}

/** Self time per profile node, leaving out the first `skipMs` (start-up: module compilation, source map parsing, table checks). */
function summarize(profile: Profile, skipMs: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed < skipMs * 1000) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const components = new Map<string, number>();
  const functions = new Map<string, { us: number; component: string }>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const source = sourceOf(node.callFrame);
    const component = componentOf(node.callFrame, source);
    if (component === '(idle)') continue;
    total += us;
    components.set(component, (components.get(component) ?? 0) + us);
    const key = `${node.callFrame.functionName || '(anonymous)'} · ${source || node.callFrame.url || '–'}`;
    const f = functions.get(key) ?? { us: 0, component };
    f.us += us;
    functions.set(key, f);
  }
  return { total, components, functions };
}

function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, 'skip-ms': { type: 'string', default: '0' } } });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: bench/profile.ts <dir> [--top N]');
  const top = Number(values.top);
  for (const server of readdirSync(dir).sort()) {
    const files = readdirSync(join(dir, server)).filter((f) => f.endsWith('.cpuprofile'));
    for (const file of files) {
      const { total, components, functions } = summarize(JSON.parse(readFileSync(join(dir, server, file), 'utf8')), Number(values['skip-ms']));
      console.log(`### ${server}: ${(total / 1e6).toFixed(2)} s of CPU sampled (idle and the first ${values['skip-ms']} ms excluded)\n`);
      console.log('| component | self time | share |\n|---|--:|--:|');
      for (const [c, us] of [...components].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
        console.log(`| ${c} | ${(us / 1000).toFixed(0)} ms | ${((100 * us) / total).toFixed(1)}% |`);
      }
      console.log(`\n| top functions (self time) | component | share |\n|---|---|--:|`);
      for (const [f, { us, component }] of [...functions].sort((a, b) => b[1].us - a[1].us).slice(0, top)) {
        console.log(`| \`${f.replace(/\|/g, '\\|')}\` | ${component} | ${((100 * us) / total).toFixed(1)}% |`);
      }
      console.log('');
    }
  }
}

main();
