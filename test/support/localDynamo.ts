/**
 * DynamoDB Local as the tests start it: the run's shared one (globalSetup.ts)
 * and the few files that need one of their own.
 */
import { startLocalDynamo, type LocalDynamo } from '../../src/dynamo/local.js';

/**
 * JVM flags for a test run's DynamoDB Local. A run sends it some tens of
 * thousands of short requests on a 2-core machine; measured on 6,000 of
 * them (puts, queries, transactions on a table with an index and a stream):
 * about 31 s of Java CPU with the JVM's defaults, 16–20 s with these. The
 * JVM stops at its quick compiler (the optimising one costs more CPU than it
 * wins back in a few minutes), collects garbage on one thread and keeps no
 * performance-counter file.
 */
export const TEST_JAVA_OPTIONS = process.env.NOFLAGS ? [] : ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-XX:+UseSerialGC', '-XX:-UsePerfData'];

/** A DynamoDB Local of the test's own on a free port, with the test run's JVM flags. */
export const startTestDynamo = (options: { timeoutMs?: number } = {}): Promise<LocalDynamo> =>
  startLocalDynamo({ port: 0, ...options, javaOptions: TEST_JAVA_OPTIONS });
