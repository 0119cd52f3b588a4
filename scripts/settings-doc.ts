/**
 * `npm run docs:settings`: writes the settings table (src/config/settings.ts) into
 * docs/configuration.md (the full table) and the README (the most used
 * settings), between their `<!-- settings:… -->` markers. The unit test
 * test/unit/settings.test.ts fails when either differs from the table, so
 * the documents cannot drift from the code; this script is how to fix them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOST_USED_SETTINGS, settingsSummary, settingsTable } from '../src/config.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The text between `<!-- settings:<name> -->` and `<!-- /settings:<name> -->`, replaced by `body`. */
export function replaceBetween(document: string, name: string, body: string): string {
  const open = `<!-- settings:${name} -->`;
  const close = `<!-- /settings:${name} -->`;
  const from = document.indexOf(open);
  const to = document.indexOf(close);
  if (from < 0 || to < from) throw new Error(`the markers ${open} … ${close} are missing`);
  return `${document.slice(0, from + open.length)}\n${body}\n${document.slice(to)}`;
}

export const SETTINGS_DOCUMENTS = [
  { file: 'docs/configuration.md', marker: 'table', render: settingsTable },
  { file: 'README.md', marker: 'most-used', render: () => settingsSummary(MOST_USED_SETTINGS) },
] as const;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { file, marker, render } of SETTINGS_DOCUMENTS) {
    const path = join(root, file);
    const before = readFileSync(path, 'utf8');
    const after = replaceBetween(before, marker, render());
    if (after !== before) writeFileSync(path, after);
    console.log(`${file}: ${after === before ? 'up to date' : 'rewritten'}`);
  }
}
