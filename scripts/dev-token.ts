// `pnpm token --tenant demo [--admin] [--hours 12]`: prints a bearer token for calling a local Coperto.
// Signs with JWT_SECRET when set, else with the embedded mode's public development secret.
import { parseArgs } from 'node:util';
import { EMBEDDED_DEV_SECRET, isValidTenantId, signToken } from '@coperto/auth';

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
const secret = process.env.JWT_SECRET || EMBEDDED_DEV_SECRET;
const token = await signToken({
  secret,
  tenantId,
  admin: values.admin ?? false,
  subject: values.subject ?? 'dev-user',
  expiresIn: `${Number(values.hours ?? 12)}h`,
  ...(process.env.JWT_ISSUER ? { issuer: process.env.JWT_ISSUER } : {}),
  ...(process.env.JWT_AUDIENCE ? { audience: process.env.JWT_AUDIENCE } : {}),
});
console.log(token);
