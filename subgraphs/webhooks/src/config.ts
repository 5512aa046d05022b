import { envBoolean, loadConfig } from '@coperto/config';
import { readSubgraphConfig } from '@coperto/server-kit';
import { z } from 'zod';

/** The webhooks subgraph's own settings, wherever it is hosted (its process, or the embedded gateway). */
export interface WebhooksSettings {
  /** WEBHOOKS_ALLOW_PRIVATE=true lets endpoints be private, loopback or link-local addresses (tests only). */
  allowPrivate: boolean;
}

const settingsSchema = z.object({ WEBHOOKS_ALLOW_PRIVATE: envBoolean.default(false) });

/** Reads the webhooks settings from an environment (a wrong value is a ConfigError naming it). */
export function readWebhooksSettings(env: Readonly<Record<string, string | undefined>>): WebhooksSettings {
  return { allowPrivate: loadConfig(settingsSchema, env).WEBHOOKS_ALLOW_PRIVATE };
}

/**
 * The only places this package reads the environment: its settings (whoever hosts it), and the process's
 * configuration (serviceConfigSpec + SUBGRAPH_<NAME>_URL) when it runs as its own process.
 */
export const settingsFromEnvironment = (): WebhooksSettings => readWebhooksSettings(process.env);
export const processConfigFromEnvironment = () => readSubgraphConfig(process.env);
