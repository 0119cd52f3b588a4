/**
 * The directives that declare subscriptions in the SDL, as one SDL string
 * (directives.ts supplies it to every model file, next to the model's own
 * directive definitions).
 *
 * Both go on fields of the `Subscription` type; subscriptions/declared.ts reads them and
 * refuses, all at once and naming the field, anything it cannot serve.
 *
 * - `@changes`: the object the field's arguments name, sent after every
 *   change of its stored item, `null` once the item is deleted. The field's
 *   type is that object type (nullable); its arguments are the key
 *   arguments of the type's root read field (`Query.<field>(id:)`), in the
 *   same order.
 * - `@collectionChanges(field: "Type.connection")`: each addition, update
 *   and removal in that connection of one parent, whoever wrote the table.
 *   The field's arguments name the parent (its key arguments, as for
 *   `@changes`). Its type is a change object with exactly: a `ChangeKind!`
 *   field, an `ID!` field (the child's id) and one field whose type is the
 *   connection's edge type or its node type (`null` when removed).
 *
 * `ChangeKind` is the enum of kinds: ADDED, UPDATED, REMOVED.
 */
export const SUBSCRIPTION_DIRECTIVES = /* GraphQL */ `
  "Subscription field: the object its key arguments name, after each change of its item (null once deleted)."
  directive @changes on FIELD_DEFINITION
  "Subscription field: additions, updates and removals in the connection named by field (Type.connection) of the parent its key arguments name."
  directive @collectionChanges(field: String!) on FIELD_DEFINITION
`;

export const CHANGES = 'changes';
export const COLLECTION_CHANGES = 'collectionChanges';
export const CHANGE_KIND = 'ChangeKind';
export type ChangeKind = 'ADDED' | 'UPDATED' | 'REMOVED';
