/**
 * The only reader of process.env, in the files of config/. Every setting is
 * stated once, in the settings table (config/settings.ts): its name,
 * default (one, or one per environment), the values it accepts, what it
 * means and its group. Three readers use that table and nothing else:
 *
 * - `loadConfig()` (config/loadConfig.ts) parses and checks each value by
 *   its entry, runs the few checks that span settings and shapes the typed
 *   Config (config/configTypes.ts) the rest of src/ reads;
 * - `settingsTable()` (config/settingsTable.ts) renders the table as
 *   Markdown for docs/configuration.md and the README;
 * - `changedSettings()` and `unknownSettings()` list, for the start-up
 *   line, the settings changed from their defaults and the variables that
 *   look like misspelt settings.
 *
 * This file is what the rest of the project imports.
 */
export { changedSettings } from './config/changedSettings.js';
export {
  type AuthConfig,
  type CatalogConfig,
  type Config,
  ConfigError,
  type DynamoClientConfig,
  type DynamoEndpoint,
  type HttpConfig,
  type LambdaFirstExport,
  type LogLevel,
  type MetricExporterName,
  type OidcAuthConfig,
  type OperationLimitsConfig,
  type OtlpProtocol,
  type ReshardConfig,
  type SecurityConfig,
  type StreamConfig,
  type SubscriptionConfig,
  type TelemetrySettings,
  type TraceExporterName,
  type UnknownSetting,
  withoutEmbedded,
} from './config/configTypes.js';
export { DEFAULTS } from './config/defaults.js';
export { type LoadOptions, loadConfig, loadTelemetrySettings } from './config/loadConfig.js';
export { DEFAULT_SCHEMA_FILE, OWNER_CLAIM_SETTING, PROD_NODE_ENV, SETTINGS, type SettingName } from './config/settings.js';
export { MOST_USED_SETTINGS, settingsSummary, settingsTable } from './config/settingsTable.js';
export { unknownSettings } from './config/unknownSettings.js';
