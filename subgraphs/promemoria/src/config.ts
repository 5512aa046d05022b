import { loadConfig } from '@coperto/config';
import { readSubgraphConfig } from '@coperto/server-kit';
import { z } from 'zod';
import { mailSettingsOf, mailSettingsShape } from './mail-settings.js';

/** The only place this process reads its environment (serviceConfigSpec + SUBGRAPH_<NAME>_URL + SMTP). */
export const { config, subgraphUrls } = readSubgraphConfig(process.env);
export const mailSettings = mailSettingsOf(loadConfig(z.object(mailSettingsShape), process.env));
