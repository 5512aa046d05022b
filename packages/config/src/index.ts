export type { ConfigIssue } from './config-error.js';
export { ConfigError } from './config-error.js';
export type { ConfigSchema, Env, LoadConfigOptions } from './load-config.js';
export { loadConfig } from './load-config.js';
export { envBoolean, envList, envUrl } from './env-schemas.js';
