/**
 * The Apollo Federation subgraph compatibility suite's fixtures, as its
 * checks use them: the reference `products` schema the `_service` SDL is
 * compared with, and the `users` and `inventory` subgraphs (with their
 * data) that the suite composes beside `products` behind a router. The
 * suite's CLI starts a router it downloads; here @apollo/gateway stands in.
 */
import { GraphQLError, parse, print, type DocumentNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode, type ObjectTypeExtensionNode } from 'graphql';

/** The suite's reference `products.graphql`, the schema every implementation declares. */
export const REFERENCE_PRODUCTS = `
extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@composeDirective", "@extends", "@external", "@key", "@inaccessible", "@interfaceObject", "@override", "@provides", "@requires", "@shareable", "@tag"])
  @link(url: "https://myspecs.dev/myCustomDirective/v1.0", import: ["@custom"])
  @composeDirective(name: "@custom")
directive @custom on OBJECT
type Product @custom @key(fields: "id") @key(fields: "sku package") @key(fields: "sku variation { id }") {
  id: ID!  sku: String  package: String  variation: ProductVariation  dimensions: ProductDimension
  createdBy: User @provides(fields: "totalProductsCreated")  notes: String @tag(name: "internal")  research: [ProductResearch!]!
}
type DeprecatedProduct @key(fields: "sku package") { sku: String!  package: String!  reason: String  createdBy: User }
type ProductVariation { id: ID! }
type ProductResearch @key(fields: "study { caseNumber }") { study: CaseStudy!  outcome: String }
type CaseStudy { caseNumber: ID!  description: String }
type ProductDimension @shareable { size: String  weight: Float  unit: String @inaccessible }
extend type Query {
  product(id: ID!): Product
  deprecatedProduct(sku: String!, package: String!): DeprecatedProduct @deprecated(reason: "Use product query instead")
}
extend type User @key(fields: "email") {
  averageProductsCreatedPerYear: Int @requires(fields: "totalProductsCreated yearsOfEmployment")
  email: ID! @external  name: String @override(from: "users")  totalProductsCreated: Int @external  yearsOfEmployment: Int! @external
}
type Inventory @interfaceObject @key(fields: "id") { id: ID!  deprecatedProducts: [DeprecatedProduct!]! }
`;

type ObjectNode = ObjectTypeDefinitionNode | ObjectTypeExtensionNode;
const objects = (document: DocumentNode, name: string): ObjectNode[] =>
  document.definitions.filter((d): d is ObjectNode => (d.kind === 'ObjectTypeDefinition' || d.kind === 'ObjectTypeExtension') && d.name.value === name);

/** The suite's "introspection" comparison: every field (and argument) of the reference's types, with the same type, in the SDL given. */
export function schemaDifferences(sdl: string): string[] {
  const reference = parse(REFERENCE_PRODUCTS);
  const actual = parse(sdl);
  const differences: string[] = [];
  const compare = (type: string, expected: readonly FieldDefinitionNode[], fields: readonly FieldDefinitionNode[]) => {
    for (const field of expected) {
      const found = fields.find((f) => f.name.value === field.name.value);
      if (!found) {
        differences.push(`${type} does not declare ${field.name.value}`);
        continue;
      }
      if (print(found.type) !== print(field.type)) differences.push(`${type}.${field.name.value} is ${print(found.type)}, expected ${print(field.type)}`);
      for (const arg of field.arguments ?? []) {
        const given = found.arguments?.find((a) => a.name.value === arg.name.value);
        if (!given || print(given.type) !== print(arg.type)) differences.push(`${type}.${field.name.value}(${arg.name.value}:) is not ${print(arg.type)}`);
      }
    }
  };
  for (const type of ['CaseStudy', 'DeprecatedProduct', 'Product', 'ProductDimension', 'ProductResearch', 'ProductVariation', 'User']) {
    const found = objects(actual, type);
    if (found.length === 0) differences.push(`does not define ${type}`);
    compare(
      type,
      objects(reference, type).flatMap((t) => t.fields ?? []),
      found.flatMap((t) => t.fields ?? []),
    );
  }
  const queryFields = objects(actual, 'Query')
    .flatMap((t) => t.fields ?? [])
    .filter((f) => ['product', 'deprecatedProduct'].includes(f.name.value));
  compare(
    'Query',
    objects(reference, 'Query').flatMap((t) => t.fields ?? []),
    queryFields,
  );
  return differences;
}

/** The suite's `users` subgraph and its data. */
export const USERS_SUBGRAPH = {
  typeDefs: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
    type User @key(fields: "email") { email: ID!  name: String  totalProductsCreated: Int @shareable  yearsOfEmployment: Int! }
  `,
  resolvers: {
    User: {
      __resolveReference: (ref: { email: string }) =>
        [{ email: 'support@apollographql.com', name: 'Apollo Studio Support', totalProductsCreated: 10, yearsOfEmployment: 10 }].find(
          (u) => u.email === ref.email,
        ),
    },
  },
};

/** The suite's `inventory` subgraph and its data. */
export const INVENTORY_SUBGRAPH = {
  typeDefs: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@requires", "@shareable", "@provides", "@external", "@tag"])
    extend type Product @key(fields: "id") {
      id: ID! @external
      dimensions: ProductDimension @external
      delivery(zip: String): DeliveryEstimates @requires(fields: "dimensions { size weight }")
    }
    type ProductDimension @shareable { size: String  weight: Float }
    type DeliveryEstimates { estimatedDelivery: String  fastestDelivery: String }
    interface Inventory @key(fields: "id") { id: ID!  products: [Product!]! }
    type OpenSourceInventory implements Inventory @key(fields: "id") { id: ID!  products: [Product!]! }
    type Query { inventory(id: ID!): Inventory }
  `,
  resolvers: {
    Query: {
      inventory: (_: unknown, args: { id: string }) => [{ id: 'apollo-oss', products: [{ id: 'apollo-federation' }] }].find((i) => i.id === args.id),
    },
    Product: {
      delivery: (product: { id: string; dimensions: { size: string; weight: number } }, args: { zip: string }) => {
        if (product.id !== 'apollo-federation') throw new GraphQLError("product.id was not 'apollo-federation'");
        if (product.dimensions.size !== 'small') throw new GraphQLError("product.dimensions.size was not 'small'");
        if (product.dimensions.weight !== 1) throw new GraphQLError("product.dimensions.weight was not '1'");
        if (args.zip !== '94111') throw new GraphQLError("product.delivery input zip was not '94111'");
        return { estimatedDelivery: '5/1/2019', fastestDelivery: '5/1/2019' };
      },
    },
    Inventory: { __resolveType: (inventory: { id: string }) => (inventory.id === 'apollo-oss' ? 'OpenSourceInventory' : null) },
  },
};
