// `pnpm token --tenant demo [--admin] [--hours 12]`: prints a bearer token for calling a local Coperto.
// Signs with JWT_SECRET when set, else with the secret embedded mode created in DATA_DIR (default .data) on its
// first start. No key in the source code is ever accepted by the service.
import { parseArgs } from 'node:util';
import { isValidTenantId, signToken } from '@coperto/auth';
import { localSigningSecret } from './local-signing-secret.js';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string', default: 'demo' },
    admin: { type: 'boolean', default: false },
    hours: { type: 'string', default: '12' },
    subject: { type: 'string', default: 'dev-user' },
  },
});
const tenantId = values.tenant ?? 'demo';
if (!isValidTenantId(tenantId)) {
  console.error(`Invalid tenant id ${JSON.stringify(tenantId)}: use 1-64 of A-Z a-z 0-9 _ -`);
  process.exit(2);
}
const token = await signToken({
  secret: localSigningSecret(),
  tenantId,
  admin: values.admin ?? false,
  subject: values.subject ?? 'dev-user',
  expiresIn: `${Number(values.hours ?? 12)}h`,
  ...(process.env.JWT_ISSUER ? { issuer: process.env.JWT_ISSUER } : {}),
  ...(process.env.JWT_AUDIENCE ? { audience: process.env.JWT_AUDIENCE } : {}),
});
console.log(token);
