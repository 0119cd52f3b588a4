/**
 * Key templates: `TEAM#{id}`, `POST#{id}`, `USER#{user}`, `PROFILE`.
 *
 * In:  a template's text as the model declares it.
 * Out: its parts (literal text and placeholders), the literal prefix before
 *      the first placeholder (what `begins_with` reads), `fill` (values →
 *      key value) and `match` (key value → values, or null).
 *
 * Templates are exact unless their key attribute declares a casing
 * (@table/@index(casing:), as ElectroDB lower-cases its keys by default):
 * then the whole key, literal text and values alike, is written in that
 * case, the prefix and the literals a key is matched against are too, and
 * the values read back from a key are as the key holds them (a lower-cased
 * key cannot give back "Open"; readers take such values from attributes).
 * Ids never contain `#`, so a placeholder followed by literal text ends
 * where that text starts; two placeholders side by side could not be told
 * apart and are refused.
 */
import { invariantViolation } from '../errors.js';

export type TemplatePart = { literal: string } | { placeholder: string };

/** The case a key attribute's values are written in: as given (NONE), or all lower or upper case. */
export type KeyCasing = 'NONE' | 'LOWER' | 'UPPER';

const asGiven = (text: string) => text;
const lower = (text: string) => text.toLowerCase();
const upper = (text: string) => text.toUpperCase();

/** Text as a key of this casing holds it. */
export const casingOf = (casing: KeyCasing): ((text: string) => string) => (casing === 'LOWER' ? lower : casing === 'UPPER' ? upper : asGiven);

export interface KeyTemplate {
  readonly source: string;
  /** The parts, their literal text as the key holds it (cased). */
  readonly parts: readonly TemplatePart[];
  readonly placeholders: readonly string[];
  /** The literal text before the first placeholder (the whole value when there is none), as the key holds it. */
  readonly prefix: string;
  /** The case its keys are written in. */
  readonly casing: KeyCasing;
  /** A text (a value, a bound) as the key holds it: itself unless the key is cased. */
  cased(text: string): string;
  fill(values: Readonly<Record<string, string>>): string;
  match(value: unknown): Record<string, string> | null;
  /**
   * One placeholder's value in a key value: undefined when the value does not
   * match the template, null when it matches but the template has no such
   * placeholder. The same acceptance as match(); for the usual templates
   * (`PREFIX#{id}`, `PROFILE`) without building match()'s object.
   */
  valueOf(value: unknown, placeholder: string): string | null | undefined;
}

export class TemplateError extends Error {}

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Parses a template (its keys written in `casing`); throws TemplateError naming what is wrong. */
export function parseTemplate(source: string, casing: KeyCasing = 'NONE'): KeyTemplate {
  if (source.length === 0) throw new TemplateError('is empty');
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    const index = m.index ?? 0;
    if (index > at) parts.push({ literal: source.slice(at, index) });
    const name = m[1];
    if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) throw new TemplateError(`has a placeholder {${name}} that is not a field name`);
    if (parts.length > 0 && 'placeholder' in parts[parts.length - 1]) {
      throw new TemplateError(
        `has two placeholders side by side ({${(parts[parts.length - 1] as { placeholder: string }).placeholder}}{${name}}): they cannot be told apart`,
      );
    }
    parts.push({ placeholder: name });
    at = index + m[0].length;
  }
  if (at < source.length) parts.push({ literal: source.slice(at) });
  for (const p of parts) {
    if ('literal' in p && /[{}]/.test(p.literal)) throw new TemplateError(`has an unmatched brace in "${p.literal}"`);
  }
  const placeholders = parts.flatMap((p) => ('placeholder' in p ? [p.placeholder] : []));
  if (new Set(placeholders).size !== placeholders.length) throw new TemplateError('names a placeholder twice');
  for (let i = 0; i + 1 < parts.length; i++) {
    const next = parts[i + 1];
    if ('placeholder' in parts[i] && 'literal' in next && !next.literal.startsWith('#')) {
      // A value ends at the next '#': literal text after a placeholder must start with one.
      throw new TemplateError(`has literal text "${next.literal}" after a placeholder that does not start with '#'`);
    }
  }
  const cased = casingOf(casing);
  const keyParts = casing === 'NONE' ? parts : parts.map((p) => ('literal' in p ? { literal: cased(p.literal) } : p));
  const first = keyParts[0];
  const prefix = 'literal' in first ? first.literal : '';
  return new Template(source, keyParts, placeholders, prefix, casing, parts);
}

class Template implements KeyTemplate {
  /** Literal text, then at most one placeholder (`PREFIX#{id}`, `{id}`, `PROFILE`): valueOf's short way. */
  private readonly simple: boolean;
  private readonly single: string | null;

  readonly cased: (text: string) => string;

  constructor(
    readonly source: string,
    readonly parts: readonly TemplatePart[],
    readonly placeholders: readonly string[],
    readonly prefix: string,
    readonly casing: KeyCasing,
    /** The parts as declared: fill() cases the whole key at once, as ElectroDB does. */
    private readonly declared: readonly TemplatePart[],
  ) {
    const last = parts[parts.length - 1]!;
    this.simple = placeholders.length === 0 || (placeholders.length === 1 && 'placeholder' in last);
    this.single = placeholders.length === 1 ? placeholders[0]! : null;
    this.cased = casingOf(casing);
  }

  valueOf(value: unknown, placeholder: string): string | null | undefined {
    if (!this.simple) {
      const values = this.match(value);
      return values === null ? undefined : (values[placeholder] ?? null);
    }
    if (typeof value !== 'string' || !value.startsWith(this.prefix)) return undefined;
    const at = this.prefix.length;
    if (this.single === null) return value.length === at ? null : undefined;
    // The placeholder runs to the end: not empty, no '#'.
    if (value.length === at || value.indexOf('#', at) >= 0) return undefined;
    return this.single === placeholder ? value.slice(at) : null;
  }

  fill(values: Readonly<Record<string, string>>): string {
    let out = '';
    for (const part of this.declared) {
      if ('literal' in part) out += part.literal;
      else {
        const value = values[part.placeholder];
        if (value === undefined) invariantViolation(`template ${this.source} needs {${part.placeholder}}`);
        out += value;
      }
    }
    return this.casing === 'NONE' ? out : this.cased(out);
  }

  match(value: unknown): Record<string, string> | null {
    if (typeof value !== 'string') return null;
    const values: Record<string, string> = {};
    let at = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i];
      if ('literal' in part) {
        if (!value.startsWith(part.literal, at)) return null;
        at += part.literal.length;
        continue;
      }
      const next = this.parts[i + 1];
      // An id runs to the next '#' (the next literal starts with one), or to the end.
      const end = next === undefined ? value.length : value.indexOf('#', at);
      if (end < 0) return null;
      const id = value.slice(at, end);
      if (id.length === 0 || id.includes('#')) return null;
      values[part.placeholder] = id;
      at = end;
    }
    return at === value.length ? values : null;
  }
}

/** Do two literal prefixes overlap: could one value begin with both? (One is a prefix of the other.) */
export const prefixesOverlap = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);

/** `node`'s placeholders → `owner`'s, where the two templates have the same literal text and placeholders at the same places; null otherwise. */
export function renamedPlaceholders(node: KeyTemplate, owner: KeyTemplate): Map<string, string> | null {
  if (node.parts.length !== owner.parts.length) return null;
  const map = new Map<string, string>();
  for (let i = 0; i < node.parts.length; i++) {
    const a = node.parts[i]!;
    const b = owner.parts[i]!;
    if ('literal' in a && 'literal' in b && a.literal === b.literal) continue;
    if ('placeholder' in a && 'placeholder' in b) map.set(a.placeholder, b.placeholder);
    else return null;
  }
  return map;
}
