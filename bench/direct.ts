/**
 * The hand-written baseline: for each benchmark case, the fewest DynamoDB
 * calls a careful client needs for the same answer, issued as concurrently
 * as the data dependencies allow, shaped like the GraphQL response
 * (`{ data: … }`) so the runner can check both agree.
 *
 * No GraphQL, no DataLoader, no cursors beyond what the answer holds: this
 * is the floor the gateway's overhead is measured against.
 */
import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReadPort } from '../src/dynamo/readPort.js';

type Item = Record<string, any>;
type Vars = Record<string, any>;
export type DirectCase = (doc: DynamoDBDocumentClient, table: string, vars: Vars) => Promise<unknown>;

/**
 * The client a direct case sends through: `view` (an operation's counted
 * view of the document client), its GetItem, Query and BatchGetItem handed
 * to `reads` when given (the gateway's read port on its read path:
 * `--direct-reads lean`).
 */
export function directClient(view: DynamoDBDocumentClient, reads?: ReadPort): DynamoDBDocumentClient {
  if (!reads) return view;
  const send = (command: { input: any }) =>
    command instanceof GetCommand
      ? reads.get(command.input)
      : command instanceof QueryCommand
        ? reads.query(command.input)
        : command instanceof BatchGetCommand
          ? reads.batchGet(command.input)
          : (view.send as (c: unknown) => Promise<unknown>)(command);
  return { send } as unknown as DynamoDBDocumentClient;
}

const after = (value: string) => value.slice(value.indexOf('#') + 1);

async function batchGet(doc: DynamoDBDocumentClient, table: string, keys: { PK: string; SK: string }[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const chunks: (typeof keys)[] = [];
  for (let i = 0; i < keys.length; i += 100) chunks.push(keys.slice(i, i + 100));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: Record<string, any>[] | undefined = chunk;
      while (pending && pending.length > 0) {
        const out: any = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
        for (const item of out.Responses?.[table] ?? []) found.set(item.PK, item);
        pending = out.UnprocessedKeys?.[table]?.Keys;
      }
    }),
  );
  return found;
}

const getProfile = async (doc: DynamoDBDocumentClient, table: string, PK: string) =>
  (await doc.send(new GetCommand({ TableName: table, Key: { PK, SK: 'PROFILE' } }))).Item;

/** The parent's partition from `prefix` up to PROFILE, `limit` items, in one Query. */
const partition = async (doc: DynamoDBDocumentClient, table: string, PK: string, prefix: string, forward: boolean, limit: number) =>
  ((
    await doc.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':pk': PK, ':lo': prefix, ':hi': 'PROFILE' },
        ScanIndexForward: forward,
        Limit: limit,
      }),
    )
  ).Items ?? []) as Item[];

const courseStudents = async (doc: DynamoDBDocumentClient, table: string, courseId: string, limit: number) =>
  ((
    await doc.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': 'STUDENT#' },
        Limit: limit,
      }),
    )
  ).Items ?? []) as Item[];

const order = (o: Item) => ({ id: after(o.SK), placedAt: o.placedAt, total: o.total, status: o.status ?? null });

export const directCases: Record<string, DirectCase> = {
  /** customer(id) { name orders(last: 10) { edges { node {…} } pageInfo { hasPreviousPage } } } */
  async customerLast10(doc, table, { id }) {
    const items = await partition(doc, table, `CUSTOMER#${id}`, 'ORDER#', false, 12);
    const profile = items[0]?.SK === 'PROFILE' ? items[0] : undefined;
    if (!profile) return { data: { customer: null } };
    const orders = items.slice(1).filter((i) => i.SK.startsWith('ORDER#'));
    const page = orders.slice(0, 10).reverse();
    return {
      data: { customer: { name: profile.name, orders: { edges: page.map((o) => ({ node: order(o) })), pageInfo: { hasPreviousPage: orders.length > 10 } } } },
    };
  },

  /** customer(id) { name orders(first: 10) { … pageInfo { hasNextPage } } }: profile and page together. */
  async customerFirst10(doc, table, { id }) {
    const [profile, items] = await Promise.all([
      getProfile(doc, table, `CUSTOMER#${id}`),
      doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
          ExpressionAttributeValues: { ':pk': `CUSTOMER#${id}`, ':p': 'ORDER#' },
          Limit: 11,
        }),
      ),
    ]);
    if (!profile) return { data: { customer: null } };
    const orders = (items.Items ?? []) as Item[];
    return {
      data: {
        customer: {
          name: profile.name,
          orders: { edges: orders.slice(0, 10).map((o) => ({ node: order(o) })), pageInfo: { hasNextPage: orders.length > 10 } },
        },
      },
    };
  },

  /** student(id) { name courses(first: 10) { edges { node { id title } } } }: a student with ≤ 10 courses. */
  async studentCourses(doc, table, { id }) {
    const items = await partition(doc, table, `STUDENT#${id}`, 'COURSE#', true, 12);
    const profile = items.find((i) => i.SK === 'PROFILE');
    if (!profile) return { data: { student: null } };
    const edges = items.filter((i) => i.SK.startsWith('COURSE#')).slice(0, 10);
    return { data: { student: { name: profile.name, courses: { edges: edges.map((e) => ({ node: { id: after(e.SK), title: e.courseTitle } })) } } } };
  },

  /** course(id) { title students(first: N) { edges { node { id name } } } } */
  async courseStudents(doc, table, { id, first = 10 }) {
    const [profile, edges] = await Promise.all([getProfile(doc, table, `COURSE#${id}`), courseStudents(doc, table, id, first)]);
    if (!profile) return { data: { course: null } };
    return { data: { course: { title: profile.title, students: { edges: edges.map((e) => ({ node: { id: after(e.PK), name: e.studentName } })) } } } };
  },

  /** course(id) { title students(first: 10) { edges { node { id name email } } } } */
  async courseStudentsEmail(doc, table, { id }) {
    const [profile, edges] = await Promise.all([getProfile(doc, table, `COURSE#${id}`), courseStudents(doc, table, id, 10)]);
    if (!profile) return { data: { course: null } };
    const students = await batchGet(
      doc,
      table,
      edges.map((e) => ({ PK: e.PK, SK: 'PROFILE' })),
    );
    return {
      data: {
        course: {
          title: profile.title,
          students: { edges: edges.map((e) => ({ node: { id: after(e.PK), name: e.studentName, email: students.get(e.PK)?.email ?? null } })) },
        },
      },
    };
  },

  /** student(id) { courses(first: 10) { edges { node { title students(first: 10) { edges { node { name email } } } } } } } */
  async nested(doc, table, { id }) {
    const items = await partition(doc, table, `STUDENT#${id}`, 'COURSE#', true, 12);
    if (!items.some((i) => i.SK === 'PROFILE')) {
      // The page did not reach the profile: a hand-written client checks existence too.
      if (!(await getProfile(doc, table, `STUDENT#${id}`))) return { data: { student: null } };
    }
    const courses = items.filter((i) => i.SK.startsWith('COURSE#')).slice(0, 10);
    const pages = await Promise.all(courses.map((c) => courseStudents(doc, table, after(c.SK), 10)));
    const keys = [...new Set(pages.flat().map((e) => e.PK))].map((PK) => ({ PK, SK: 'PROFILE' }));
    const students = await batchGet(doc, table, keys);
    return {
      data: {
        student: {
          courses: {
            edges: courses.map((c, i) => ({
              node: {
                title: c.courseTitle,
                students: { edges: pages[i].map((e) => ({ node: { name: e.studentName, email: students.get(e.PK)?.email ?? null } })) },
              },
            })),
          },
        },
      },
    };
  },

  /** a0: student(id: $id0) { name } … one BatchGetItem per 100 ids. */
  async students(doc, table, vars) {
    const ids = Array.from({ length: Object.keys(vars).length }, (_, i) => String(vars[`id${i}`]));
    const found = await batchGet(
      doc,
      table,
      ids.map((id) => ({ PK: `STUDENT#${id}`, SK: 'PROFILE' })),
    );
    const data: Record<string, unknown> = {};
    ids.forEach((id, i) => {
      const s = found.get(`STUDENT#${id}`);
      data[`a${i}`] = s ? { name: s.name } : null;
    });
    return { data };
  },
};
