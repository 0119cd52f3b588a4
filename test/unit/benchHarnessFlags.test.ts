/**
 * The replay harnesses of `npm run bench` all run with one fixed young
 * generation (bench/replay.ts, harnessNodeFlags), so that what a harness did
 * before its measured part cannot change how often its side collects garbage.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HARNESS_SEMI_SPACE_MB, harnessNodeFlags } from '../../bench/replay.js';

/**
 * Scavenges (minor garbage collections) of a Node process started with
 * `flags` while it allocates the same short-lived garbage (4 million small
 * objects), after first keeping `survivors` long-lived ones.
 */
function scavenges(flags: string[], survivors: number): number {
  const script = `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    const kept = [];
    for (let i = 0; i < ${survivors}; i++) kept.push({ i, s: 'x' + i });
    let minor = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    });
    observer.observe({ entryTypes: ['gc'] });
    const ring = new Array(1024);
    for (let i = 0; i < 4e6; i++) ring[i & 1023] = { a: i, b: [i, i + 1, i + 2] };
    setTimeout(() => { observer.disconnect(); process.stdout.write(String(minor)); }, 50);`;
  const result = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return Number(result.stdout);
}

describe('the replay harnesses’ Node flags', () => {
  it('fix the young generation at one size, the same lower and upper bound', () => {
    expect(harnessNodeFlags({})).toEqual([`--min-semi-space-size=${HARNESS_SEMI_SPACE_MB}`, `--max-semi-space-size=${HARNESS_SEMI_SPACE_MB}`]);
  });

  it('are replaced by BENCH_REPLAY_NODE_FLAGS', () => {
    expect(harnessNodeFlags({ BENCH_REPLAY_NODE_FLAGS: ' --max-semi-space-size=64  --no-opt ' })).toEqual(['--max-semi-space-size=64', '--no-opt']);
  });

  it('make a process that kept much before collect as often as one that kept little, where without them it collects far less often', () => {
    // Without the flags V8 grows the young generation with what survived: the harness that built more first collects less.
    const grown = { little: scavenges([], 1_000), much: scavenges([], 1_000_000) };
    expect(grown.much).toBeGreaterThan(0);
    expect(grown.little).toBeGreaterThan(2 * grown.much);
    const fixed = { little: scavenges(harnessNodeFlags({}), 1_000), much: scavenges(harnessNodeFlags({}), 1_000_000) };
    expect(fixed.little).toBeGreaterThan(0);
    expect(Math.abs(fixed.much - fixed.little)).toBeLessThanOrEqual(Math.ceil(0.3 * fixed.little));
  });
});
