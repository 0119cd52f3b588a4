/**
 * The directive that declares subscriptions in the SDL, as SDL text
 * (directives.ts supplies it to every model file, next to the model's own
 * directive definitions).
 *
 * It goes on fields of the `Subscription` type; subscriptions/declared.ts
 * reads it and refuses, all at once and naming the field, anything it
 * cannot serve.
 *
 * - `@changes`: the object the field's arguments name, sent after every
 *   change of its stored item, `null` once the item is deleted. The field's
 *   type is that object type (nullable); its arguments are the key
 *   arguments of the type's root read field (`Query.<field>(id:)`), in the
 *   same order.
 * - `@changes(field: "Type.connection")`: each addition, update and
 *   removal in that connection of one parent, whoever wrote the table.
 *   The field's arguments name the parent (its key arguments, as above).
 *   Its type is a change object with exactly: a `ChangeKind!` field, an
 *   `ID!` field (the child's id) and one field whose type is the
 *   connection's edge type or its node type (`null` when removed).
 *
 * `ChangeKind` is the enum of kinds: ADDED, UPDATED, REMOVED.
 */
export const SUBSCRIPTION_DIRECTIVES = /* GraphQL */ `
  """
  Subscription field. Without field: the object its key arguments name,
  after each change of its item (null once deleted). With field (a
  connection, as Type.connection): additions, updates and removals in that
  connection of the parent its key arguments name.
  """
  directive @changes(field: String) on FIELD_DEFINITION
`;

export const CHANGES = 'changes';
export const CHANGE_KIND = 'ChangeKind';
export type ChangeKind = 'ADDED' | 'UPDATED' | 'REMOVED';
