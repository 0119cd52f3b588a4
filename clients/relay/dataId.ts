/**
 * Relay's store keys each record by one string (`getDataID`): the global id
 * where the API has one (`Node { globalId }`, unique across types), else the
 * type and what identifies the object in the cache shape `npm run schema`
 * writes (clients/api/cacheShape.ts): `Type:id`, or for a type whose id
 * repeats across parents the values of its key, and nothing (Relay's own
 * id from the record's place in its parent) when the result lacks one of
 * them or the type has no identity. docs/clients.md#relay.
 */
import { keyValues, type CacheShape } from '../api/cacheShape.js';

type Fields = Record<string, unknown>;

/** The `getDataID` of a Relay Environment for the API in `shape`; `globalIdField` names the Node interface's id field. */
export function relayDataId(shape: CacheShape, globalIdField = 'globalId'): (fields: Fields, typeName: string) => string | undefined {
  const embedded = new Set(shape.embedded);
  return (fields, typeName) => {
    const global = fields[globalIdField];
    if (typeof global === 'string') return global;
    if (embedded.has(typeName)) return undefined;
    const paths = shape.keys[typeName];
    if (!paths) return fields.id == null ? undefined : `${typeName}:${String(fields.id)}`;
    const values = keyValues(paths, fields);
    return values ? `${typeName}:${JSON.stringify(values)}` : undefined;
  };
}
