/**
 * Where a connection's cursors carry the arguments they are bound to, and
 * the value expected there for `args`: the group (`p`) of a catalog list
 * (its key and search prefix), the argument binding (`a`) of a narrowed
 * connection, '' for connections without such arguments. Refuses bad
 * arguments (BAD_USER_INPUT): argumentCheck.ts runs this over the whole
 * operation before execution.
 */
import { catalogGroup, validatePrefix } from './arguments.js';
import type { Plan } from './plan.js';
import { boundsBinding, sortedFix } from './bounds.js';
import { keyIn } from '../declaration/indexed.js';

export type CursorBinding = (args: Record<string, unknown>) => { field: 'p' | 'a'; value: string };

const NONE: CursorBinding = () => ({ field: 'a', value: '' });

export function compileBindings(plan: Plan): (connection: string) => CursorBinding {
  const bindings = new Map<string, CursorBinding>();
  for (const catalog of plan.catalogs) {
    const prefixArgument = catalog.prefixArgument;
    bindings.set(`Query.${catalog.field}`, (args) => ({
      field: 'p',
      value: catalogGroup(catalog.key, prefixArgument === null || args[prefixArgument] == null ? null : validatePrefix(args[prefixArgument], prefixArgument)),
    }));
  }
  for (const relation of plan.relations.values()) {
    const range = relation.range;
    if (range) bindings.set(relation.path, (args) => ({ field: 'a', value: range.binding(range.filter(args)) }));
    const bounds = relation.relation.bounds;
    if (bounds) bindings.set(relation.path, (args) => ({ field: 'a', value: boundsBinding(bounds, args) }));
    const r = relation.relation;
    const key = r.kind === 'children' && r.index !== null ? keyIn(relation.node.type, r.index, plan.model.layout) : null;
    if (r.kind === 'children' && key && key.skMore.length > 0) bindings.set(relation.path, (args) => ({ field: 'a', value: sortedFix(key, r.sortArguments, r.bounds, args).binding }));
  }
  for (const query of plan.queries) {
    const bounds = query.field.bounds;
    if (bounds) bindings.set(query.path, (args) => ({ field: 'a', value: boundsBinding(bounds, args) }));
    const key = keyIn(query.node.type, query.field.index, plan.model.layout, query.field.shape);
    const { sortArguments } = query.field;
    if (key && key.skMore.length > 0) bindings.set(query.path, (args) => ({ field: 'a', value: sortedFix(key, sortArguments, bounds, args).binding }));
  }
  return (connection) => bindings.get(connection) ?? NONE;
}
