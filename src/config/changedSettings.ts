/**
 * The start-up line's list: the settings set to something other than
 * their default, secrets redacted.
 */
import type { Env } from './configTypes.js';
import { defaultOf, isProd, isUnset, SETTINGS, TABLE } from './settings.js';

const shown = (raw: string) => {
  const value = raw.trim();
  return value.length > 120 ? `${value.slice(0, 117)}…` : value;
};

/**
 * The settings set to something other than their default, by name (in the
 * table's order), as given; secrets show `(set)`. A pattern entry lists
 * each variable of its family that is set.
 */
export function changedSettings(env: Env): Record<string, string> {
  const prod = isProd(env);
  const changed: Record<string, string> = {};
  const claimed = new Set(Object.keys(SETTINGS));
  for (const [name, setting] of Object.entries(TABLE)) {
    if (setting.kind === 'pattern') {
      for (const member of Object.keys(env).sort()) {
        if (!claimed.has(member) && setting.matches!.test(member) && !isUnset(env[member])) changed[member] = setting.secret ? '(set)' : shown(env[member]!);
      }
      continue;
    }
    const raw = env[name];
    if (isUnset(raw, setting)) continue;
    let same = false;
    try {
      same = JSON.stringify(setting.parse(raw, name, { prod })) === JSON.stringify(defaultOf(setting, prod));
    } catch {
      // A value loadConfig did not need (it reads AWS_DEFAULT_REGION only without AWS_REGION): shown as given.
    }
    if (!same) changed[name] = setting.secret ? '(set)' : shown(raw);
  }
  return changed;
}
