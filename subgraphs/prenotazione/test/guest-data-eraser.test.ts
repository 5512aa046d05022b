import { describe, expect, it } from 'vitest';
import { ERASED_NAME, withoutGuestData } from '../src/privacy/guest-data-eraser.js';

describe('a guest’s data erased from a booking or a waitlist entry', () => {
  const record = {
    id: 'b1',
    customerName: 'Rita Greco',
    cliente: 'Rita Greco',
    customerPhone: '+39 333 5550001',
    notes: 'allergic to nuts',
    covers: 2,
  };

  it('replaces the name, the phone, the email and the notes, keeping everything else', () => {
    expect(withoutGuestData({ ...record, customerEmail: 'rita@example.com' })).toEqual({
      id: 'b1',
      customerName: ERASED_NAME,
      cliente: ERASED_NAME,
      customerPhone: null,
      notes: null,
      customerEmail: null,
      covers: 2,
    });
    expect(withoutGuestData(record)).not.toHaveProperty('customerEmail');
  });

  it('changes nothing on a record already erased (no new version, no event)', () => {
    expect(withoutGuestData(withoutGuestData(record)!)).toBeNull();
  });
});
