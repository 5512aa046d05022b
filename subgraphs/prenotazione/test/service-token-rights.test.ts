import { describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { ServiceTokenRights } from '../src/bookings/service-token-rights.js';

const base = { tenantId: trustedTenantId('t1'), subject: null, isAdmin: false, token: 'x' };
const staff = new ServiceTokenRights({ ...base, roles: [] });
const channel = new ServiceTokenRights({
  ...base,
  roles: ['channel'],
  grant: { role: 'channel', channelId: 'c1', channelName: 'Sito', origine: 'online' },
} satisfies Viewer);
const guest = new ServiceTokenRights({
  ...base,
  roles: ['guest'],
  grant: { role: 'guest', bookingId: 'b1' },
} satisfies Viewer);

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code: string }).code;
  }
  return 'none';
};

describe('what a guest token may do with bookings (the subgraph’s own checks)', () => {
  it('sees its own booking only; any other is NOT_FOUND, as if it did not exist', () => {
    expect(guest.maySee('b1')).toBe(true);
    expect(guest.maySee('b2')).toBe(false);
    expect(codeOf(() => guest.requireVisible('b2'))).toBe('NOT_FOUND');
    expect(codeOf(() => guest.requireVisible('b1'))).toBe('none');
    expect(staff.maySee('b2')).toBe(true);
  });

  it('of a list reached through a table: staff all, a guest its own, a channel none', () => {
    const records = [{ id: 'b1' }, { id: 'b2' }];
    expect(staff.visible(records)).toEqual(records);
    expect(guest.visible(records)).toEqual([{ id: 'b1' }]);
    expect(channel.visible(records)).toEqual([]);
  });

  it('changes covers, time and notes only; a new party or time goes through the autoAssign rule', () => {
    expect(guest.patchFor('b1', { notes: 'x' })).toEqual({ notes: 'x' });
    expect(guest.patchFor('b1', { numeroPersone: 3 })).toEqual({ numeroPersone: 3, autoAssign: true });
    expect(guest.patchFor('b1', { dataOra: '2027-01-01T20:00' })).toMatchObject({ autoAssign: true });
    expect(codeOf(() => guest.patchFor('b1', { tableIds: ['t'], autoAssign: false }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(codeOf(() => guest.patchFor('b2', { notes: 'x' }))).toBe('NOT_FOUND');
    const staffPatch = { tableIds: ['t'] };
    expect(staff.patchFor('b2', staffPatch)).toBe(staffPatch);
  });

  it('only staff ask for a guest token; a guest token creates nothing', () => {
    expect(codeOf(() => staff.requireStaff('x'))).toBe('none');
    expect(codeOf(() => channel.requireStaff('x'))).toBe('FORBIDDEN');
    expect(codeOf(() => guest.requireStaff('x'))).toBe('FORBIDDEN');
    expect(codeOf(() => guest.checkBooking({ covers: 2 }))).toBe('FORBIDDEN');
  });
});

describe('a booking channel’s booking names a way to reach the guest', () => {
  const guestOnly = { customerName: 'Ospite', autoAssign: true };
  it('takes a phone or an email and refuses neither, naming customerPhone', () => {
    expect(codeOf(() => channel.checkBooking({ ...guestOnly, customerPhone: '+39 333 1234567' }))).toBe(
      'none',
    );
    expect(codeOf(() => channel.checkBooking({ ...guestOnly, customerEmail: 'ospite@example.com' }))).toBe(
      'none',
    );
    expect(codeOf(() => channel.checkBooking(guestOnly))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => staff.checkBooking({ customerName: 'Ospite' }))).toBe('none');
  });
});
