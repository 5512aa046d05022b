export type { Field, CommonOptions, PresenceOptions, Presence } from './field.js';
export { InvalidValueError } from './field.js';
export type {
  StrOptions,
  IntOptions,
  UrlOptions,
  ListOptions,
  ListItem,
  DurationOptions,
  DurationUnit,
  CustomOptions,
} from './fields.js';
export { str, int, port, bool, url, oneOf, list, duration, custom } from './fields.js';
export type { ConfigIssue } from './config-error.js';
export { ConfigError } from './config-error.js';
export type { ConfigSpec, Config, Env, LoadConfigOptions } from './load-config.js';
export { loadConfig, redactConfig } from './load-config.js';
