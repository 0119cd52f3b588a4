/**
 * The directive that declares subscriptions, as SDL text (directives.ts
 * supplies it to every model file); subscriptions/declared.ts reads it and
 * refuses, all at once and naming the field, what it cannot serve
 * (docs/subscriptions.md, "Declaring subscriptions").
 *
 * - `@changes`: the object the field's arguments name (the key arguments of
 *   its root read field), sent after every change, `null` once deleted.
 * - `@changes(field: "Type.connection")`: each addition, update and
 *   removal in that connection of one parent, as a change object with a
 *   `ChangeKind!`, the child's `ID!` and its edge or node (`null` when removed).
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
