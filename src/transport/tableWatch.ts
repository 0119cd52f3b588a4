/**
 * tableWatch(): tells the operator, once, that the table the gateway serves
 * does not exist (deleted after start-up, another TABLE_NAME, region or
 * account): one error-level line naming the table, the endpoint and what to
 * do, instead of one "unavailable" warning per request. Operations that
 * find it missing (graphql/formatError.ts) and `/health` report to it; once
 * `/health` sees the table again it says so, and a later loss is told again.
 */
import type { Logger } from '../logger.js';

export interface TableWatch {
  /** An operation or a health check found no table. */
  missing(): void;
  /** A health check found the table. */
  present(): void;
  /** Whether the table was last seen missing. */
  readonly isMissing: boolean;
}

export function tableWatch(logger: Logger, tableName: string, endpoint: string): TableWatch {
  let missing = false;
  return {
    missing() {
      if (missing) return;
      missing = true;
      logger.error(
        { table: tableName, endpoint, setting: 'TABLE_NAME' },
        `configuration error: table ${tableName} does not exist at ${endpoint}: create it (npm start creates it when it starts; on AWS deploy infra/table.yaml) or set TABLE_NAME to the table to serve`,
      );
    },
    present() {
      if (!missing) return;
      missing = false;
      logger.info({ table: tableName, endpoint }, `table ${tableName} exists again`);
    },
    get isMissing() {
      return missing;
    },
  };
}
