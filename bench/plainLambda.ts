/**
 * What a user would deploy instead of the gateway: Apollo Server with
 * `@as-integrations/aws-lambda`, the same schema.graphql, and naive
 * resolvers (one DynamoDB request per field that needs one, through the
 * AWS SDK's document client, no batching or look-ahead). The cold-start
 * benchmark (bench/coldstart.ts) bundles it as a user would, one esbuild
 * bundle, and compares its start with the gateway's.
 *
 * It resolves what the cold-start operation reads (student, its courses,
 * their students); other fields resolve to nothing. Environment:
 * DYNAMODB_ENDPOINT, TABLE_NAME.
 */
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { startServerAndCreateLambdaHandler, handlers } from '@as-integrations/aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DIRECTIVE_DEFINITIONS } from '../src/declaration/directives.js';

// The model's directives are declared by the gateway (src/declaration/directives.ts); a plain server needs their definitions to parse the SDL.
const typeDefs = DIRECTIVE_DEFINITIONS + readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
const TableName = process.env.TABLE_NAME ?? 'AppTable';
const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: process.env.AWS_REGION ?? 'us-east-1',
    ...(process.env.DYNAMODB_ENDPOINT ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }),
);

type Item = Record<string, any>;
const get = async (PK: string, SK: string) => (await doc.send(new GetCommand({ TableName, Key: { PK, SK } }))).Item;
const after = (key: string, prefix: string) => key.slice(prefix.length);
const connection = (items: Item[]) => ({
  edges: items.map((item) => ({ cursor: `${item.PK}|${item.SK}`, item })),
  pageInfo: { hasNextPage: false, hasPreviousPage: false },
  totalCount: items.length,
});

const resolvers = {
  Query: {
    student: async (_: unknown, { id }: { id: string }) => get(`STUDENT#${id}`, 'PROFILE'),
    course: async (_: unknown, { id }: { id: string }) => get(`COURSE#${id}`, 'PROFILE'),
  },
  Student: {
    id: (s: Item) => after(s.PK, 'STUDENT#'),
    courses: async (s: Item, { first = 20 }: { first?: number }) => {
      const out = await doc.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
          ExpressionAttributeValues: { ':pk': s.PK, ':sk': 'COURSE#' },
          Limit: first,
        }),
      );
      return connection(out.Items ?? []);
    },
  },
  Course: {
    id: (c: Item) => after(c.PK, 'COURSE#'),
    students: async (c: Item, { first = 20 }: { first?: number }) => {
      const out = await doc.send(
        new QueryCommand({ TableName, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': c.PK }, Limit: first }),
      );
      return connection(out.Items ?? []);
    },
  },
  StudentCourseEdge: {
    enrolledAt: (e: { item: Item }) => e.item.enrolledAt,
    node: (e: { item: Item }) => get(e.item.SK, 'PROFILE'),
  },
  CourseStudentEdge: {
    enrolledAt: (e: { item: Item }) => e.item.enrolledAt,
    node: (e: { item: Item }) => get(e.item.PK, 'PROFILE'),
  },
};

const server = new ApolloServer({ typeDefs, resolvers });

// The integration is typed against @apollo/server's CommonJS declarations; the class is the same.
export const handler = startServerAndCreateLambdaHandler(server as never, handlers.createAPIGatewayProxyEventV2RequestHandler());
