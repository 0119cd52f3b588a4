/**
 * Cased keys (@table/@index(casing:)): what a model declaring them can be
 * served with. A cased key is written in one case, literal text and values
 * alike, as ElectroDB writes its keys (lower case by default); it cannot
 * give back the values it holds, so whatever the gateway reads from keys
 * alone must have another source or be refused, one line each:
 *
 * - an index declaring a casing for one of the table's own key attributes
 *   other than the table's (one attribute, one casing);
 * - a type whose key in a cased index is a stored field itself (no
 *   template): casing would change the field;
 * - @edges in a table with cased keys: an edge names its node by the
 *   node's key (or a key template's placeholder) alone;
 * - @catalog lists and keys by instant in a cased GSI2: their keys are
 *   the engine's own layout, not templates;
 * - an inverted type whose GSI1 declares another casing than the table's:
 *   its GSI1 keys are its table keys swapped.
 */
import type { ServedReading } from './reading.js';

export function checkCasing({ layout, items, relations, queries, problems }: ServedReading): void {
  const tableKeys = new Map([[layout.pk, 'partition'], ...(layout.sk === null ? [] : [[layout.sk, 'sort'] as const])]);
  const casingOf = (index: string) => layout.indexes.find((i) => i.name === index)?.casing ?? null;
  for (const index of layout.indexes) {
    if (index.casing === null) continue;
    for (const attribute of [...index.pk, ...index.sk]) {
      const role = tableKeys.get(attribute);
      if (role !== undefined && index.casing !== layout.casing) {
        problems.add(
          `schema @index(name: "${index.name}", casing)`,
          `${attribute} is the table's ${role} key, written ${layout.casing} (@table(casing:)): one attribute has one casing`,
        );
      }
    }
  }
  for (const item of items.values()) {
    for (const placement of item.indexed) {
      const casing = casingOf(placement.index);
      if (casing === null || casing === 'NONE') continue;
      for (const part of [...placement.pk, ...placement.sk]) {
        if (part.written || tableKeys.has(part.attribute)) continue;
        const field = item.attributes.find((a) => a.storedAs === part.attribute);
        problems.add(
          `${item.name} @indexed(index: "${placement.index}")`,
          `its key attribute ${part.attribute} there is the field ${item.name}.${field?.name ?? part.attribute} itself, which casing ${casing} would change: give the index templates, or leave its casing out`,
        );
      }
    }
    const gsi1 = casingOf('GSI1');
    if (item.inverted && gsi1 !== null && gsi1 !== layout.casing) {
      problems.add(`${item.name} @item(inverted)`, `its GSI1 keys are its table keys swapped, written ${layout.casing}, but GSI1 declares casing ${gsi1}`);
    }
    const gsi2 = casingOf('GSI2');
    if (item.byInstant && gsi2 !== null && gsi2 !== 'NONE') {
      problems.add(
        `${item.name} @indexed(index: "GSI2")`,
        `a key by instant is written by the gateway's own layout, which GSI2's casing ${gsi2} does not apply to: leave GSI2's casing out`,
      );
    }
  }
  if (layout.casing !== 'NONE') {
    for (const r of relations.values()) {
      if (r.kind !== 'edges') continue;
      problems.add(
        `${r.path} @edges`,
        `the table's keys are written ${layout.casing} (@table(casing:)): an edge names its node by a key alone, which a cased key cannot give back; not served`,
      );
    }
  }
  const gsi2 = casingOf('GSI2');
  for (const q of queries) {
    if (q.kind !== 'catalog' || gsi2 === null || gsi2 === 'NONE') continue;
    problems.add(
      `Query.${q.field} @catalog`,
      `a catalog's entries are written by the gateway's own layout, which GSI2's casing ${gsi2} does not apply to: leave GSI2's casing out`,
    );
  }
}
