export const RECEIPTS = `
scalar DateTime
interface Node { globalId: ID! }
type Account { id: ID!  receipts(first: Int, after: String, last: Int, before: String): ReceiptConnection! @children }
"Keyed by natural fields only: its id is derived from its key."
type Receipt implements Node @item(pk: "ACC#{account}", sk: "REC#{processedAt}#SKU#{sku}") {
  globalId: ID!
  id: ID!
  sku: String!
  processedAt: DateTime!
  amount: String
  account: Account! @parent
  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @children(counter: "noteCount")
}
type Note implements Node @item(pk: "RN#{receipt}", sk: "NOTE#{id}") { globalId: ID! id: ID!  text: String!  receipt: Receipt! @parent }
type Refund implements Node @item(pk: "REFUND#{id}", sk: "META") { globalId: ID! id: ID!  receipt: Receipt!  reason: String! }
type Query {
  node(id: ID!): Node @get(by: NODE)
  account(id: ID!): Account @get
  receipt(id: ID!): Receipt @get
  receiptAt(account: ID!, processedAt: DateTime!, sku: String!): Receipt @get
  note(receipt: ID!, id: ID!): Note @get
  refund(id: ID!): Refund @get
}
input CreateReceiptInput { sku: String!  processedAt: DateTime!  amount: String }
input UpdateReceiptInput { amount: String }
input AddNoteInput { id: ID  text: String! }
input CreateRefundInput { id: ID  receipt: ID!  reason: String! }
type Mutation {
  createReceipt(account: ID!, input: CreateReceiptInput!): Receipt! @create(parent: "account")
  updateReceipt(id: ID!, input: UpdateReceiptInput!): Receipt! @update
  updateReceiptAt(account: ID!, processedAt: DateTime!, sku: String!, input: UpdateReceiptInput!): Receipt! @update(parent: "account")
  deleteReceipt(id: ID!): ID! @delete(type: "Receipt")
  deleteReceiptAt(account: ID!, processedAt: DateTime!, sku: String!): ID! @delete(type: "Receipt", parent: "account")
  addNote(receipt: ID!, input: AddNoteInput!): Note! @create(parent: "receipt")
  createRefund(input: CreateRefundInput!): Refund! @create
}
`;

/** A top-level type keyed by its code alone, the node of edges that copy its name (renames reach them through an inverted index). */
export const SKUS = `
extend schema @index(name: "inverted", pk: ["SK"], sk: ["PK"])
type Sku @item(pk: "SKU#{code}", sk: "META") {
  id: ID!  code: String!  name: String!
  shops(first: Int, after: String, last: Int, before: String): SkuShopConnection! @edges(inverseOf: "skus", index: "inverted")
}
type Shop @item(pk: "SHOP#{id}", sk: "META") {
  id: ID!  name: String!
  skus(first: Int, after: String, last: Int, before: String): ShopSkuConnection! @edges(pk: "SHOP#{id}#skus", sk: "k#{sku}", copy: [{ field: "name", attribute: "skuName" }], counter: "skuCount")
}
type ShopSkuConnection { edges: [ShopSkuEdge!]! pageInfo: PageInfo! totalCount: Int! }
type ShopSkuEdge { cursor: String! node: Sku! }
type SkuShopConnection { edges: [SkuShopEdge!]! pageInfo: PageInfo! totalCount: Int! }
type SkuShopEdge { cursor: String! node: Shop! }
input CreateSkuInput { code: String! name: String! }
input UpdateSkuInput { name: String }
input CreateShopInput { id: ID name: String! }
type Query { sku(id: ID!): Sku @get  skuByCode(code: String!): Sku @get  shop(id: ID!): Shop @get }
type Mutation {
  createSku(input: CreateSkuInput!): Sku! @create
  renameSku(id: ID!, input: UpdateSkuInput!): Sku! @update
  deleteSku(code: String!): ID! @delete(type: "Sku")
  createShop(input: CreateShopInput!): Shop! @create
  stock(shopId: ID!, skuId: ID!): ShopSkuEdge! @addEdge(edges: "Shop.skus", from: "shopId", to: "skuId")
}
`;
