import { loadConfig } from '@coperto/config';
import { readSubgraphConfig } from '@coperto/server-kit';
import { z } from 'zod';
import { stripeSettingsOf, stripeSettingsShape } from './stripe-settings.js';

/** The only place this process reads its environment (serviceConfigSpec + SUBGRAPH_<NAME>_URL, Stripe's settings). */
export const { config, subgraphUrls } = readSubgraphConfig(process.env);
export const stripeSettings = stripeSettingsOf(loadConfig(z.object(stripeSettingsShape), process.env));
