import type { Resolvers } from '../__generated__/resolvers.js';
import { Query } from './Query.js';
import { Mutation } from './Mutation.js';
import { Student } from './Student.js';
import { Course } from './Course.js';
import { Customer } from './Customer.js';
import { Product } from './Product.js';
import { Order, Part } from './OrderAndPart.js';
import { DateTime } from './DateTime.js';
import {
  CourseConnection,
  CourseStudentConnection,
  OrderConnection,
  StudentConnection,
  PageInfo,
  PartConnection,
  StudentCourseConnection,
} from './Connection.js';

export const resolvers: Resolvers = {
  DateTime,
  Query,
  Mutation,
  Student,
  Course,
  Customer,
  Product,
  Order,
  Part,
  PageInfo,
  StudentCourseConnection,
  CourseStudentConnection,
  OrderConnection,
  PartConnection,
  CourseConnection,
  StudentConnection,
};
