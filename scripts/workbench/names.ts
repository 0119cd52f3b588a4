/**
 * GraphQL names made from an export's text: words, PascalCase type names,
 * camelCase fields, plurals, and names kept unique. Whatever the export
 * holds, what comes out is a GraphQL name (letters, digits, `_`, not
 * opening with a digit or `__`).
 */
export const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Type names the model's own declarations or GraphQL already use. */
export const RESERVED_TYPES = new Set(['Query', 'Mutation', 'Subscription', 'PageInfo', 'DateTime', 'Node', 'String', 'Int', 'Float', 'Boolean', 'ID']);

export const words = (text: string): string[] => text.split(/[^0-9A-Za-z]+/).filter(Boolean);
const pascalWord = (w: string) => (w === w.toUpperCase() ? w.charAt(0) + w.slice(1).toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1));
export const pascal = (ws: readonly string[]): string => {
  const name = ws.map(pascalWord).join('');
  return /^[0-9]/.test(name) ? `T${name}` : name;
};
export const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
export const plural = (name: string) =>
  /s$/.test(name) ? name : /(x|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`;

/** A field name for an attribute: its own when it is a GraphQL name, else its letters and digits joined by `_`. */
export const fieldName = (attribute: string): string =>
  NAME.test(attribute) && !attribute.startsWith('__')
    ? attribute
    : attribute
        .replace(/[^_0-9A-Za-z]/g, '_')
        .replace(/^_+/, '')
        .replace(/^(?=[0-9])/, '_')
        .replace(/_+$/, '') || 'value';

/** `name`, or `name2`, `name3`… : the first `taken` lacks (then added to it). */
export function unique(taken: Set<string>, name: string): string {
  let n = name;
  for (let i = 2; taken.has(n); i++) n = `${name}${i}`;
  taken.add(n);
  return n;
}
