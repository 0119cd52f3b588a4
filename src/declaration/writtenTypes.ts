/**
 * The types a model may leave out and the gateway writes: `PageInfo`, and
 * for a connection field typed `<T>Connection` where `<T>` is an object,
 * interface or union type of the model, `<T>Connection { edges pageInfo totalCount }` and
 * `<T>Edge { cursor node }`. A model that declares any of them keeps its
 * own (an edge type with attributes of the edge item, say).
 *
 * In: the parsed model. Out: the same document with the missing
 * definitions added (they have no source location).
 */
import { Kind, parse, visit, type DefinitionNode, type DocumentNode } from 'graphql';

const CONNECTION = 'Connection';
const EDGE = 'Edge';

export function withWrittenTypes(document: DocumentNode): DocumentNode {
  const defined = new Set(document.definitions.flatMap((d) => ('name' in d && d.name ? [d.name.value] : [])));
  const objects = new Set(
    document.definitions.flatMap((d) =>
      d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION || d.kind === Kind.UNION_TYPE_DEFINITION ? [d.name.value] : [],
    ),
  );
  const referenced = new Set<string>();
  visit(document, { NamedType: (node) => void referenced.add(node.name.value) });
  const written: string[] = [];
  const edges = new Set<string>();
  let pageInfo = false;
  for (const name of referenced) {
    if (defined.has(name)) continue;
    if (name.endsWith(CONNECTION) && objects.has(name.slice(0, -CONNECTION.length))) {
      const node = name.slice(0, -CONNECTION.length);
      written.push(`type ${name} { edges: [${node}Edge!]! pageInfo: PageInfo! totalCount: Int! }`);
      edges.add(node);
      pageInfo = true;
    } else if (name.endsWith(EDGE) && objects.has(name.slice(0, -EDGE.length))) {
      edges.add(name.slice(0, -EDGE.length));
    }
  }
  for (const node of edges) if (!defined.has(`${node}Edge`)) written.push(`type ${node}Edge { cursor: String! node: ${node}! }`);
  if ((pageInfo || referenced.has('PageInfo')) && !defined.has('PageInfo')) {
    written.push('type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }');
  }
  if (written.length === 0) return document;
  const added: DefinitionNode[] = [...parse(written.join('\n'), { noLocation: true }).definitions];
  return { ...document, definitions: [...document.definitions, ...added] };
}
