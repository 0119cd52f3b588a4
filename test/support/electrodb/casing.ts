/**
 * ElectroDB's key casing for the designs modelled from its documentation:
 * its default (every key lower-cased) or `casing: "none"` on every index
 * key, and the gateway model of the same design in the matching casing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildModel } from '../../../src/declaration/buildModel.js';
import type { Model } from '../../../src/declaration/model.js';

export type ElectroCasing = 'default' | 'none';

/**
 * An ElectroDB service as the tests use it. ElectroDB's own types follow
 * each entity's literal definition; the definitions here take their keys'
 * casing as an argument, so the tests read the service loosely.
 */
export interface ElectroService {
  entities: Record<string, any>;
  collections: Record<string, (key: Record<string, string>) => { go(options?: object): Promise<{ data: Record<string, any[]> }>; params(): unknown }>;
}

/** An index key of ElectroDB's: its field and composite attributes, with `casing: "none"` when asked. */
export const keyed = (casing: ElectroCasing) => (field: string, composite: string[]) =>
  casing === 'none' ? { field, composite, casing: 'none' as const } : { field, composite };

/**
 * The gateway model of examples/electrodb/<name>.graphql, declared there
 * in ElectroDB's default casing (LOWER); for `none`, every `casing: LOWER`
 * of its @table and @index made NONE.
 */
export function electroModel(name: string, casing: ElectroCasing): Model {
  const file = fileURLToPath(new URL(`../../../examples/electrodb/${name}.graphql`, import.meta.url));
  const sdl = readFileSync(file, 'utf8');
  const cased = casing === 'none' ? sdl.replaceAll('casing: LOWER', 'casing: NONE') : sdl;
  return buildModel(cased, `examples/electrodb/${name}.graphql (${casing === 'none' ? 'casing NONE' : 'ElectroDB default casing'})`);
}
