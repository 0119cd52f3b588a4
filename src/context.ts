/**
 * The per-request context: the DynamoDB client and table, and fresh
 * loaders for every operation.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createLoaders, type Loaders } from './loaders.js';

export interface Deps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

export interface Context extends Deps {
  loaders: Loaders;
}

export function createContext(deps: Deps): Context {
  return { ...deps, loaders: createLoaders(deps.doc, deps.tableName) };
}
