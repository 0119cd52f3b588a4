/**
 * The default model's rules (its @access declarations, compiled): defaults
 * for fields and types it does not list, the generic wrapping, and the
 * documentation that mirrors it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultFieldResolver, parse, type GraphQLResolveInfo } from 'graphql';
import { applyRules } from '../../src/auth/applyRules.js';
import { ANONYMOUS, type Caller } from '../../src/auth/identity.js';
import { compileRules } from '../../src/auth/compileRules.js';
import { loadModel } from '../../src/declaration/loadModel.js';

const rules = compileRules(loadModel());
const { ruleFor } = rules;

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  kind: 'caller',
  subject: 'x',
  roles: new Set(),
  admin: false,
  owns: new Map(),
  ...overrides,
});

describe('rule lookup', () => {
  it.each([
    ['Query', 'courses', 'anyone'],
    ['Query', 'students', 'signed-in callers'],
    ['Course', 'shards', 'anyone'], // a new catalog field is public like the rest of Course
    ['Student', 'phone', 'admins'], // a new personal field is private until listed
    ['Customer', 'address', 'the customer themselves'],
    ['Order', 'lines', 'the customer themselves'],
    ['Query', 'auditLog', 'admins'], // a new root field is admin-only until listed
    ['Mutation', 'renameEverything', 'admins'],
    ['Invoice', 'total', 'admins'], // a new entity type: deny by default
  ])('%s.%s → %s', (type, field, rule) => {
    expect(ruleFor(type, field)?.name).toBe(rule);
  });

  it("compiles the default model's declarations to the rules the gateway has always had, field by field", () => {
    const table = Object.fromEntries(rules.fields.map((key) => [key, ruleFor(...(key.split('.') as [string, string]))?.name]));
    expect(table).toEqual({
      'Query.course': 'anyone',
      'Query.courses': 'anyone',
      'Query.product': 'anyone',
      'Query.student': 'signed-in callers',
      'Query.students': 'signed-in callers',
      'Query.customer': 'the customer themselves',
      'Query.order': "the order's customer",
      'Course.students': 'signed-in callers',
      'Student.id': 'signed-in callers',
      'Student.name': 'signed-in callers',
      'Student.courses': 'signed-in callers',
      'Student.email': 'the student themselves',
      'Mutation.enroll': 'the student themselves',
      'Mutation.unenroll': 'the student themselves',
      'Mutation.updateStudent': 'the student themselves',
      'Mutation.placeOrder': 'the customer themselves',
      'Mutation.updateCustomer': 'the customer themselves',
      'Query.me': 'signed-in callers',
      'Query.node': "callers allowed by the item type's own root field",
      'Student.globalId': 'signed-in callers',
    });
    for (const type of ['Course', 'Product', 'Part']) expect(ruleFor(type, 'id')).toMatchObject({ name: 'anyone' });
    for (const type of ['Query', 'Mutation', 'Student']) expect(ruleFor(type, 'anything')?.name).toBe('admins');
  });

  it('gives wrapper types no rule of their own (the field returning them decides)', () => {
    for (const type of ['CourseConnection', 'StudentEdge', 'OrderConnection', 'PageInfo']) expect(ruleFor(type, 'edges')).toBeNull();
  });
});

describe('applyRules', () => {
  const typeDefs = parse(`type Query { open: String secret: String mine(id: ID!): String }
    extend type Query { later: String }
    type Student { id: ID! email: String }`);
  const info = {} as GraphQLResolveInfo;

  it('wraps unlisted root fields (deny by default) and leaves public ones untouched', () => {
    const resolvers = { Query: { secret: () => 'x', later: () => 'y', open: () => 'z' } };
    const wrapped = applyRules(resolvers, typeDefs, rules) as any;
    for (const field of ['secret', 'later', 'mine']) {
      expect(() => wrapped.Query[field](undefined, { id: '1' }, { identity: ANONYMOUS }, info)).toThrow(
        expect.objectContaining({ extensions: { code: 'FORBIDDEN', rule: 'admins' } }),
      );
      expect(() => wrapped.Query[field](undefined, {}, { identity: caller({ owns: new Map([['Student', '1']]) }) }, info)).toThrow(/Not allowed/);
    }
    expect(wrapped.Query.secret(undefined, {}, { identity: caller({ admin: true }) }, info)).toBe('x');
  });

  it('guards fields that have no resolver with the default resolver', () => {
    const wrapped = applyRules({}, typeDefs, rules) as any;
    const student = { id: 's1', email: 'a@b.c' };
    expect(wrapped.Student.email(student, {}, { identity: caller({ owns: new Map([['Student', 's1']]) }) }, { fieldName: 'email' })).toBe('a@b.c');
    expect(() => wrapped.Student.email(student, {}, { identity: caller({ owns: new Map([['Student', 's2']]) }) }, { fieldName: 'email' })).toThrow(
      /Student.email/,
    );
    expect(wrapped.Student.id).toBeTypeOf('function');
    expect(defaultFieldResolver).toBeTypeOf('function');
  });
});

describe('docs/auth.md', () => {
  it('lists every field rule the default model declares', () => {
    const doc = readFileSync(new URL('../../docs/auth.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('|'));
    const missing = rules.fields.filter((key) => !rows.some((row) => row.includes(`\`${key}\``)));
    expect(missing).toEqual([]);
  });
});

describe('start-up', () => {
  it('warns in production when AUTH_MODE=off was chosen, and builds the server without rules', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const { createGatewayParts } = await import('../../src/transport/gatewayParts.js');
    const { captureLogger } = await import('../support/oidc.js');
    const log = captureLogger();
    const config = loadConfig({
      NODE_ENV: 'production',
      CURSOR_SECRET: 'c0123456789abcdefghijklmnopqrstuvwxyzABC',
      AUTH_MODE: 'off',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
    });
    const parts = createGatewayParts(config, { logger: log.logger });
    expect(log.lines.filter((l) => l.level === 40).map((l) => l.msg)).toContain(
      'AUTH_MODE=off with NODE_ENV=production: every caller may read and write everything (docs/auth.md)',
    );
    expect(parts.auth.rulesOn).toBe(false);
    expect(parts.deps.authRequired).toBe(false);
    parts.dynamo.raw.destroy();
  });
});
