import { describe, expect, it } from 'vitest';
import { forbiddenRootFields, SERVICE_ROLE_FIELDS, trustedTenantId, type Viewer } from '../src/index.js';

const base = { tenantId: trustedTenantId('t1'), subject: null, isAdmin: false, token: 'x' };
const staff: Viewer = { ...base, roles: [] };
const channel: Viewer = {
  ...base,
  roles: ['channel'],
  grant: { role: 'channel', channelId: 'c1', channelName: 'Sito', origine: 'online' },
};
const guest: Viewer = { ...base, roles: ['guest'], grant: { role: 'guest', bookingId: 'b1' } };

describe('forbiddenRootFields', () => {
  it('limits nothing for staff (administrator-only fields check that themselves)', () => {
    expect(forbiddenRootFields(staff, ['Query.tavoli', 'Mutation.deleteSala', 'Query.__schema'])).toEqual([]);
  });

  it("names the root fields outside a service token's role, introspection included, __typename aside", () => {
    expect(
      forbiddenRootFields(channel, [
        'Query.canaleCorrente',
        'Query.__typename',
        'Query.tavoli',
        'Query.__schema',
      ]),
    ).toEqual(['Query.tavoli', 'Query.__schema']);
    expect(forbiddenRootFields(guest, ['Query.canaleCorrente'])).toEqual(['Query.canaleCorrente']);
  });

  it("lists only fields of the service roles; Google's booking server and ospiti's privacy token have no public field", () => {
    expect(Object.keys(SERVICE_ROLE_FIELDS).sort()).toEqual([
      'channel',
      'google',
      'guest',
      'payments',
      'privacy',
    ]);
    expect(forbiddenRootFields({ ...guest, grant: { role: 'google' } }, ['Query.disponibilita'])).toEqual([
      'Query.disponibilita',
    ]);
    expect(
      forbiddenRootFields({ ...guest, grant: { role: 'privacy' } }, ['Mutation.cancellaDatiOspite']),
    ).toEqual(['Mutation.cancellaDatiOspite']);
    for (const fields of Object.values(SERVICE_ROLE_FIELDS)) {
      for (const field of fields) expect(field).toMatch(/^(Query|Mutation)\.[a-zA-Z]+$/);
    }
  });
});
