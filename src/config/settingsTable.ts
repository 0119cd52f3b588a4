/**
 * The settings table as Markdown: docs/configuration.md holds exactly
 * `settingsTable()` between its markers (a test compares them; `npm run
 * docs:settings` rewrites it), and the README's short table is
 * `settingsSummary(MOST_USED_SETTINGS)`.
 */
import { type Setting, SETTING_GROUPS } from './settingKinds.js';
import { type SettingName, TABLE } from './settings.js';

function defaultCell(setting: Setting<unknown>): string {
  if (setting.defaultText) return setting.defaultText;
  const text = (value: unknown): string =>
    value === undefined ? 'unset' : Array.isArray(value) ? `\`${value.join(',')}\`` : `\`${typeof value === 'number' ? String(value) : String(value)}\``;
  return setting.prodDefault === undefined ? text(setting.default) : `${text(setting.default)}; ${text(setting.prodDefault)} in prod mode`;
}

/** A row's name as the docs show it. */
const nameCell = (name: string) => `\`${name}\``;

/**
 * The full table as Markdown, one section per group (docs/configuration.md
 * holds exactly this between its markers).
 */
export function settingsTable(): string {
  const sections: string[] = [];
  for (const [group, title] of Object.entries(SETTING_GROUPS)) {
    const rows = Object.entries(TABLE).filter(([, s]) => s.group === group);
    sections.push(
      [
        `### ${title}`,
        '',
        '| name | default | accepts | meaning |',
        '|---|---|---|---|',
        ...rows.map(([name, s]) => `| ${nameCell(name)} | ${defaultCell(s)} | ${s.range} | ${s.meaning} |`),
      ].join('\n'),
    );
  }
  return sections.join('\n\n');
}

/** A short table of some settings, their default and the first sentence of their meaning (the README's). */
export function settingsSummary(names: readonly SettingName[]): string {
  // The README is not in docs/: its short meanings keep no links.
  const firstSentence = (text: string) => (/^(.*?\.)(\s|$)/.exec(text)?.[1] ?? text).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return [
    '| name | default | meaning |',
    '|---|---|---|',
    ...names.map((name) => `| ${nameCell(name)} | ${defaultCell(TABLE[name]!)} | ${firstSentence(TABLE[name]!.meaning)} |`),
  ].join('\n');
}

/** The README's "most used" settings. */
export const MOST_USED_SETTINGS: readonly SettingName[] = [
  'PORT',
  'HOST',
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'DYNAMODB_LOCAL_PORT',
  'SCHEMA_FILE',
  'NODE_ENV',
  'AUTH_MODE',
  'CURSOR_SECRET',
  'LOG_LEVEL',
];
