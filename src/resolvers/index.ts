import type { Resolvers } from '../__generated__/resolvers.js';
import { entities } from '../model/entities.js';
import { Query } from './Query.js';
import { Mutation } from './Mutation.js';
import { entityTypeResolvers } from './entityType.js';
import { Order, Part } from './OrderAndPart.js';
import { DateTime } from './DateTime.js';
import { connectionTypeResolvers, PageInfo } from './Connection.js';

export const resolvers: Resolvers = {
  DateTime,
  Query,
  Mutation,
  // Student, Course, Customer, Product and their connection types, from model/entities.ts.
  ...Object.fromEntries(entities.map((e) => [e.typeName, entityTypeResolvers(e)])),
  ...Object.fromEntries(entities.map((e) => [e.connection.typeName, connectionTypeResolvers])),
  Order,
  Part,
  PageInfo,
};
