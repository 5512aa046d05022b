import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { guestChangeEvents } from '@coperto/subgraph-ospiti';
import { eventViolation } from './support/event-contract.js';

type Guest = Parameters<typeof guestChangeEvents>[2];

const lucia: Guest = {
  id: 'g1',
  nome: 'Lucia Neri',
  telefono: '+393331112222',
  email: 'lucia@example.com',
  lingua: 'it',
  tag: ['VIP'],
  allergie: [],
  note: null,
  consensoMarketing: false,
  visite: 2,
  coperti: 5,
  noShow: 0,
  annullamentiTardivi: 1,
  primaVisita: '2027-01-10T20:00:00',
  ultimaVisita: '2027-02-14T21:00:00',
  spesaTotale: 184.5,
  nomeOrdine: 'lucia neri',
  chiavi: [],
  conteggiati: [],
  unitiDa: [],
  unitoIn: null,
  cancellato: false,
  cancellatoAt: null,
  version: 3,
  createdAt: '2027-01-10T19:00:00.000Z',
  updatedAt: '2027-02-14T23:00:00.000Z',
};
const later = (change: Partial<Guest>): Guest => ({
  ...lucia,
  ...change,
  version: 4,
  updatedAt: '2027-03-01T10:00:00.000Z',
});

describe("ospiti's guest events against the AsyncAPI document", () => {
  it('match the message of their subject: created, updated, merged and erased', () => {
    const tenantId = trustedTenantId('t_0123456789');
    const changes: Array<[Guest | null, Guest, string]> = [
      [null, lucia, 'guests.created'],
      [lucia, later({ tag: ['VIP', 'habitué'], spesaTotale: 230 }), 'guests.updated'],
      [lucia, later({ unitiDa: ['g2'], visite: 3 }), 'guests.merged'],
      [
        lucia,
        later({ cancellato: true, cancellatoAt: '2027-03-01T10:00:00.000Z', nome: null }),
        'guests.erased',
      ],
    ];
    for (const [before, after, type] of changes) {
      const [message] = guestChangeEvents(tenantId, before, after);
      expect((message!.body as { type: string }).type).toBe(type);
      expect(eventViolation(message!.subject, message!.body)).toBeUndefined();
    }
  });

  it('would refuse a guest event carrying personal data', () => {
    const [message] = guestChangeEvents(trustedTenantId('t_0123456789'), null, lucia);
    const body = message!.body as { data: object };
    const withName = { ...body, data: { ...body.data, nome: 'Lucia Neri' } };
    expect(eventViolation(message!.subject, withName)).toMatch(/nome|additional/);
  });
});
