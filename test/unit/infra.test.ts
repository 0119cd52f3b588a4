import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tableDefinition } from '../../src/dynamo/table.js';
import { loadConfig } from '../../src/config.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';

const root = join(import.meta.dirname, '..', '..');

/** Parses a template; a short-form tag such as `!Ref` (unreadable without a custom schema) fails the test. */
function template(file: string): any {
  const doc = parseDocument(readFileSync(join(root, file), 'utf8'));
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
  return doc.toJS();
}

const byName = <T extends { AttributeName?: string }>(list: T[] = []) =>
  [...list].sort((a, b) => String(a.AttributeName).localeCompare(String(b.AttributeName)));

describe('infra/table.yaml', () => {
  const cfn = template('infra/table.yaml');
  const table = cfn.Resources.Table;
  const props = table.Properties;
  // The default model's declared layout: the template is checked against what start-up would create.
  const expected = tableDefinition('AppTable', compilePlan(loadModel()).table);

  it('declares one DynamoDB table named by the TableName parameter, default AppTable', () => {
    const tables = Object.values(cfn.Resources).filter((r: any) => r.Type === 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    expect(table.Type).toBe('AWS::DynamoDB::Table');
    expect(cfn.Parameters.TableName).toMatchObject({ Type: 'String', Default: 'AppTable' });
    expect(props.TableName).toEqual({ Ref: 'TableName' });
  });

  it('has the key schema, attribute definitions and billing mode of tableDefinition()', () => {
    expect(props.KeySchema).toEqual(expected.KeySchema);
    expect(byName(props.AttributeDefinitions)).toEqual(byName(expected.AttributeDefinitions));
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.BillingMode).toBe(expected.BillingMode);
  });

  it('has GSI1 and GSI2 exactly as tableDefinition() declares them, projecting ALL', () => {
    expect(props.GlobalSecondaryIndexes).toEqual(expected.GlobalSecondaryIndexes);
    expect(props.GlobalSecondaryIndexes).toEqual(
      ['GSI1', 'GSI2'].map((name) => ({
        IndexName: name,
        KeySchema: [
          { AttributeName: `${name}PK`, KeyType: 'HASH' },
          { AttributeName: `${name}SK`, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
  });

  it('streams new and old images, like the tables the gateway creates', () => {
    expect(expected.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(props.StreamSpecification.StreamViewType).toBe(expected.StreamSpecification!.StreamViewType);
  });

  it('defines exactly the attributes used by a key (CloudFormation rejects any other)', () => {
    const keyAttributes = new Set([
      ...props.KeySchema.map((k: any) => k.AttributeName),
      ...props.GlobalSecondaryIndexes.flatMap((g: any) => g.KeySchema.map((k: any) => k.AttributeName)),
    ]);
    expect(new Set(props.AttributeDefinitions.map((a: any) => a.AttributeName))).toEqual(keyAttributes);
  });

  it('turns on point-in-time recovery, KMS encryption, deletion protection, TTL on expiresAt and new-and-old-image streams', () => {
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.SSESpecification).toMatchObject({ SSEEnabled: true });
    expect(props.DeletionProtectionEnabled).toBe(true);
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(props.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  it('keeps the table when the stack is deleted or the table replaced', () => {
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });

  it('accepts the same table names as TABLE_NAME validation', () => {
    const pattern = new RegExp(`^${cfn.Parameters.TableName.AllowedPattern}$`);
    expect(pattern.test('AppTable')).toBe(true);
    expect(pattern.test('my table')).toBe(false);
    expect(pattern.test('ab')).toBe(false);
  });
});

describe('infra/lambda.yaml', () => {
  const sam = template('infra/lambda.yaml');
  const fn = sam.Resources.GatewayFunction;
  const statements: any[] = fn.Properties.Policies.flatMap((p: any) => p.Statement);

  it('runs src/transport/lambda.handler from the bundle npm run build:lambda writes, on a current Node runtime', () => {
    expect(sam.Transform).toBe('AWS::Serverless-2016-10-31');
    expect(fn.Type).toBe('AWS::Serverless::Function');
    expect(fn.Properties.CodeUri).toBe('../dist/lambda');
    expect(fn.Properties.Handler).toBe('src/transport/lambda.handler');
    expect(fn.Properties.Runtime).toMatch(/^nodejs(22|24)\.x$/);
    const build = readFileSync(join(root, 'scripts', 'build-lambda.ts'), 'utf8');
    expect(build).toContain("join(root, 'dist', 'lambda')");
    expect(build).toContain("name: 'lambda'");
    const bundler = readFileSync(join(root, 'scripts', 'bundle.ts'), 'utf8');
    expect(bundler).toContain("folder = 'src/transport'");
    expect(bundler).toContain('join(outDir, folder, `${name}.mjs`)');
  });

  it('passes TABLE_NAME from the parameter and runs in production mode', () => {
    expect(fn.Properties.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: 'TableName' },
      NODE_ENV: 'production',
      LOG_LEVEL: { Ref: 'LogLevel' },
    });
    expect(sam.Parameters.TableName.Default).toBe('AppTable');
  });

  it('makes the deployer choose AUTH_MODE and passes every auth setting from a parameter', () => {
    expect(sam.Parameters.AuthMode.AllowedValues).toEqual(['oidc', 'off']);
    expect(sam.Parameters.AuthMode.Default).toBeUndefined();
    expect(fn.Properties.Environment.Variables).toMatchObject({
      AUTH_MODE: { Ref: 'AuthMode' },
      AUTH_ISSUER: { Ref: 'AuthIssuer' },
      AUTH_AUDIENCE: { Ref: 'AuthAudience' },
      AUTH_ROLES_CLAIM: { Ref: 'AuthRolesClaim' },
      AUTH_STUDENT_CLAIM: { Ref: 'AuthStudentClaim' },
      AUTH_CUSTOMER_CLAIM: { Ref: 'AuthCustomerClaim' },
    });
    // The defaults are config.ts's own.
    expect([sam.Parameters.AuthRolesClaim.Default, sam.Parameters.AuthStudentClaim.Default, sam.Parameters.AuthCustomerClaim.Default]).toEqual([
      'groups',
      'student_id',
      'customer_id',
    ]);
  });

  it('takes CURSOR_SECRET from Secrets Manager, not from a template value', () => {
    expect(fn.Properties.Environment.Variables.CURSOR_SECRET).toEqual({
      'Fn::Sub': '{{resolve:secretsmanager:${CursorSecretName}:SecretString}}',
    });
    expect(sam.Parameters.CursorSecretName.Default).toMatch(/^[\w/+=.@-]+$/);
  });

  it('routes POST and GET /graphql and GET /health through an HTTP API', () => {
    const routes = Object.values(fn.Properties.Events).map((e: any) => [e.Type, e.Properties.Method, e.Properties.Path]);
    expect(routes).toEqual(
      expect.arrayContaining([
        ['HttpApi', 'POST', '/graphql'],
        ['HttpApi', 'GET', '/graphql'],
        ['HttpApi', 'GET', '/health'],
      ]),
    );
  });

  it('grants DynamoDB actions only, without wildcards, on the table and its indexes', () => {
    for (const s of statements) {
      expect(s.Effect).toBe('Allow');
      for (const action of s.Action) expect(action).toMatch(/^dynamodb:[A-Za-z]+$/);
      expect(s.Resource.map((r: any) => r['Fn::Sub'])).toEqual([
        'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}',
        'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}/index/*',
      ]);
    }
    const granted = statements.flatMap((s) => s.Action);
    expect(granted).not.toContain('dynamodb:CreateTable');
    expect(granted).not.toContain('dynamodb:DeleteTable');
    expect(granted).not.toContain('dynamodb:Scan');
  });
});

describe('infra/lambda.yaml: the stream consumer', () => {
  const sam = template('infra/lambda.yaml');
  const fn = sam.Resources.StreamFunction;
  const mapping = fn.Properties.Events.TableStream;
  const statements: any[] = fn.Properties.Policies.flatMap((p: any) => p.Statement);

  it('runs src/stream/lambda.handler from the same bundle directory', () => {
    expect(fn.Type).toBe('AWS::Serverless::Function');
    expect(fn.Properties.CodeUri).toBe('../dist/lambda');
    expect(fn.Properties.Handler).toBe('src/stream/lambda.handler');
    expect(fn.Properties.Runtime).toMatch(/^nodejs(22|24)\.x$/);
    expect(fn.Properties.Environment.Variables).toMatchObject({ TABLE_NAME: { Ref: 'TableName' }, NODE_ENV: 'production' });
    const build = readFileSync(join(root, 'scripts', 'build-lambda.ts'), 'utf8');
    expect(build).toContain("entry: 'src/stream/lambda.ts'");
    expect(build).toContain("folder: 'src/stream'");
  });

  it("reads the table's NEW_AND_OLD_IMAGES stream through an event source mapping", () => {
    expect(mapping.Type).toBe('DynamoDB');
    expect(mapping.Properties.Stream).toEqual({ Ref: 'TableStreamArn' });
    expect(sam.Parameters.TableStreamArn.Type).toBe('String');
    expect(template('infra/table.yaml').Resources.Table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(mapping.Properties.StartingPosition).toBe('TRIM_HORIZON');
    expect(mapping.Properties.BatchSize).toBeGreaterThan(0);
    expect(mapping.Properties.ParallelizationFactor).toBe(1);
  });

  it('filters out the records the handler would ignore (its own edge writes), keeping entity changes and new edges', () => {
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: any) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      { dynamodb: { Keys: { SK: { S: ['PROFILE'] } } }, eventName: ['MODIFY', 'INSERT'] },
      { dynamodb: { Keys: { SK: { S: [{ prefix: 'COURSE#' }] } } }, eventName: ['INSERT'] },
    ]);
  });

  it('reports partial batch failures, bisects failing batches and retries a bounded number of times', () => {
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.Properties.BisectBatchOnFunctionError).toBe(true);
    expect(mapping.Properties.MaximumRetryAttempts).toEqual({ Ref: 'StreamMaxRetryAttempts' });
    const retries = sam.Parameters.StreamMaxRetryAttempts;
    expect(retries.Type).toBe('Number');
    expect(retries.Default).toBeGreaterThanOrEqual(1);
    expect(retries.MaxValue).toBeLessThanOrEqual(100); // never -1 (infinite)
    expect(retries.MinValue).toBeGreaterThanOrEqual(0);
    expect(mapping.Properties.MaximumRecordAgeInSeconds).toBeLessThanOrEqual(86400);
  });

  it('sends what it gave up on to an SQS queue (on-failure destination) it may write to', () => {
    const destination = mapping.Properties.DestinationConfig.OnFailure;
    expect(destination.Type).toBe('SQS');
    expect(destination.Destination).toEqual({ 'Fn::GetAtt': ['StreamFailureQueue', 'Arn'] });
    expect(sam.Resources.StreamFailureQueue.Type).toBe('AWS::SQS::Queue');
    const sqs = statements.find((s) => s.Action.includes('sqs:SendMessage'));
    expect(sqs.Resource).toEqual([{ 'Fn::GetAtt': ['StreamFailureQueue', 'Arn'] }]);
  });

  it('may read the stream (and only that stream) and gets no table management or Scan', () => {
    const streamStatement = statements.find((s) => s.Action.includes('dynamodb:GetRecords'));
    expect([...streamStatement.Action].sort()).toEqual(
      ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'].sort(),
    );
    expect(streamStatement.Resource).toEqual([{ Ref: 'TableStreamArn' }]);
    const granted = statements.flatMap((s) => s.Action);
    for (const forbidden of ['dynamodb:CreateTable', 'dynamodb:DeleteTable', 'dynamodb:Scan', 'dynamodb:*']) {
      expect(granted).not.toContain(forbidden);
    }
    for (const s of statements) for (const action of s.Action) expect(action).toMatch(/^(dynamodb|sqs):[A-Za-z]+$/);
  });
});

describe('infra/lambda.yaml telemetry', () => {
  const sam = template('infra/lambda.yaml');
  /** The functions' OTEL_* variables as CloudFormation resolves them for the given parameters. */
  function otelEnv(fn: string, parameters: Record<string, string>): Record<string, string> {
    const params = { ...Object.fromEntries(Object.entries(sam.Parameters).map(([k, v]: [string, any]) => [k, v.Default])), ...parameters };
    const conditions: Record<string, boolean> = { TelemetryOn: params.OtelExporterEndpoint !== '', CollectorLayer: params.OtelCollectorLayerArn !== '' };
    const resolve = (value: any): any => {
      if (typeof value === 'string') return value;
      if (value.Ref) return params[value.Ref];
      if (value['Fn::If']) return resolve(conditions[value['Fn::If'][0]] ? value['Fn::If'][1] : value['Fn::If'][2]);
      if (value['Fn::Sub']) return value['Fn::Sub'].replace(/\$\{(\w+)\}/g, (_: string, name: string) => params[name]);
      throw new Error(`unresolved ${JSON.stringify(value)}`);
    };
    const vars = sam.Resources[fn].Properties.Environment.Variables;
    return Object.fromEntries(
      Object.entries(vars)
        .filter(([k]) => k.startsWith('OTEL_'))
        .map(([k, v]) => [k, resolve(v)]),
    );
  }

  it('leaves telemetry off (no OTEL_* variable with a value) unless an OTLP endpoint is given', () => {
    for (const fn of ['GatewayFunction', 'StreamFunction']) {
      const env = otelEnv(fn, {});
      expect(Object.values(env).every((v) => v === '')).toBe(true);
      expect(loadConfig(env, { servesGraphql: false }).telemetry).toBeUndefined();
    }
  });

  it('turns traces and metrics on for both functions with the endpoint, naming each service', () => {
    const gateway = loadConfig(otelEnv('GatewayFunction', { OtelExporterEndpoint: 'http://localhost:4318' }), { servesGraphql: false });
    expect(gateway.telemetry).toMatchObject({
      traces: { exporters: ['otlp'] },
      metrics: { exporters: ['otlp'] },
      resource: { 'service.name': 'graph-gateway' },
    });
    const stream = loadConfig(otelEnv('StreamFunction', { OtelExporterEndpoint: 'http://localhost:4318', OtelMetricsExporter: 'none' }), {
      servesGraphql: false,
    });
    expect(stream.telemetry).toMatchObject({ metrics: { exporters: [] }, resource: { 'service.name': 'graph-gateway-stream' } });
  });
});
