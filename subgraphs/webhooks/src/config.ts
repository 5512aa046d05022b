import { envBoolean, loadConfig } from '@coperto/config';
import { readSubgraphConfig } from '@coperto/server-kit';
import { z } from 'zod';

/**
 * The webhooks subgraph's own settings: its process reads them here; the embedded gateway reads the same variable
 * in its own configuration and passes them.
 */
export interface WebhooksSettings {
  /** WEBHOOKS_ALLOW_PRIVATE=true lets endpoints be private, loopback or link-local addresses (tests only). */
  allowPrivate: boolean;
}

const settingsSchema = z.object({ WEBHOOKS_ALLOW_PRIVATE: envBoolean.default(false) });

/** Reads the webhooks settings from an environment (a wrong value is a ConfigError naming it). */
export function readWebhooksSettings(env: Readonly<Record<string, string | undefined>>): WebhooksSettings {
  return { allowPrivate: loadConfig(settingsSchema, env).WEBHOOKS_ALLOW_PRIVATE };
}

/** The only place the webhooks process reads its environment (serviceConfigSpec + SUBGRAPH_<NAME>_URL, settings). */
export const settingsFromEnvironment = (): WebhooksSettings => readWebhooksSettings(process.env);
export const processConfigFromEnvironment = () => readSubgraphConfig(process.env);
