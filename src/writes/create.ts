/**
 * createStudent / createCourse / createCustomer / createProduct: one
 * conditional PutItem (`attribute_not_exists(PK)`). An existing id is
 * CONFLICT and the existing item is left untouched; without an id a ULID is
 * generated. New entities start with their counter at 0.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  CreateCourseInput,
  CreateCustomerInput,
  CreateProductInput,
  CreateStudentInput,
} from '../__generated__/resolvers.js';
import type { Item } from '../dynamo/batchGet.js';
import { conflict } from '../graphql/errors.js';
import { courseCounterItems, courseItem, customerItem, productItem, studentItem } from '../model/items.js';
import { toCourse, toCustomer, toProduct, toStudent } from '../model/mappers.js';
import type { CourseRecord, CustomerRecord, ProductRecord, StudentRecord } from '../model/records.js';
import { idOrNew } from './ids.js';
import { email, shardsInput, text } from './input.js';
import type { Store } from './store.js';
import { retryConflicts, transact, TransactionCancelled } from './transact.js';

export const isConditionFailed = (err: unknown) =>
  (err as { name?: string })?.name === 'ConditionalCheckFailedException';

/** Puts `item` unless an item with its key exists (then CONFLICT naming `what`). */
export async function putNew(store: Store, item: Item, what: string): Promise<void> {
  try {
    await retryConflicts(store, () =>
      store.doc.send(
        new PutCommand({ TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }),
      ),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw conflict(`${what} already exists`);
    throw err;
  }
}

export async function createStudent(store: Store, input: CreateStudentInput): Promise<StudentRecord> {
  const item = studentItem({
    id: idOrNew(input.id),
    name: text(input.name, 'input.name'),
    email: email(input.email, 'input.email'),
    courseCount: 0,
  });
  await putNew(store, item, `Student ${toStudent(item).id}`);
  return toStudent(item);
}

/**
 * A course with `shards` > 1 is put in one transaction with its counter
 * items at 0, so its count is maintained from the first enrollment on.
 */
export async function createCourse(store: Store, input: CreateCourseInput): Promise<CourseRecord> {
  const shards = shardsInput(input.shards, 'input.shards');
  const id = idOrNew(input.id);
  const item = courseItem({ id, title: text(input.title, 'input.title'), studentCount: 0, shards });
  if (shards === 1) {
    await putNew(store, item, `Course ${id}`);
    return toCourse(item);
  }
  try {
    await transact(store, [
      { Put: { TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
      ...courseCounterItems(id, shards).map((counter) => ({ Put: { TableName: store.tableName, Item: counter } })),
    ]);
  } catch (err) {
    if (err instanceof TransactionCancelled && err.failed(0)) throw conflict(`Course ${id} already exists`);
    throw err;
  }
  return toCourse(item);
}

export async function createCustomer(store: Store, input: CreateCustomerInput): Promise<CustomerRecord> {
  const item = customerItem({
    id: idOrNew(input.id),
    name: text(input.name, 'input.name'),
    email: email(input.email, 'input.email'),
    orderCount: 0,
  });
  await putNew(store, item, `Customer ${toCustomer(item).id}`);
  return toCustomer(item);
}

export async function createProduct(store: Store, input: CreateProductInput): Promise<ProductRecord> {
  const item = productItem({ id: idOrNew(input.id), name: text(input.name, 'input.name'), partCount: 0 });
  await putNew(store, item, `Product ${toProduct(item).id}`);
  return toProduct(item);
}
