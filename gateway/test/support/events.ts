import { trustedTenantId, type Viewer } from '@coperto/auth';
import { buildEvent, type CloudEvent, type RestaurantEventType } from '@coperto/bus';

/** A tables.status event as the tavolo subgraph writes it: the full table, English aliases, previousStatus. */
export function tableStatusEvent(
  tenantId: string,
  table: { id: string; salaId?: string | null; status?: string; previousStatus?: string; nome?: string },
): { subject: string; event: CloudEvent } {
  const status = table.status ?? 'occupied';
  const salaId = table.salaId ?? null;
  const nome = table.nome ?? `T-${table.id}`;
  const { event, message } = buildEvent({
    tenantId: trustedTenantId(tenantId),
    type: 'tables.status',
    source: '/subgraphs/tavolo',
    subject: table.id,
    data: {
      id: table.id,
      nome,
      name: nome,
      capacita: 4,
      seats: 4,
      stato: status,
      status,
      salaId,
      roomId: salaId,
      attivo: true,
      posizione: null,
      orderId: null,
      pax: null,
      totalAmount: null,
      lock: null,
      createdAt: '2026-01-01T10:00:00.000Z',
      updatedAt: '2026-01-01T11:00:00.000Z',
      previousStatus: table.previousStatus ?? 'free',
    },
  });
  return { subject: message.subject, event };
}

/** A bookings.* event as the prenotazione subgraph writes it: the full booking record. */
export function prenotazioneEvent(
  tenantId: string,
  type: Extract<RestaurantEventType, `bookings.${string}`>,
  booking: { id: string; state?: string },
): { subject: string; event: CloudEvent } {
  const { event, message } = buildEvent({
    tenantId: trustedTenantId(tenantId),
    type,
    source: '/subgraphs/prenotazione',
    subject: booking.id,
    data: {
      id: booking.id,
      codice: 'ABC234',
      covers: 2,
      numeroPersone: 2,
      bookingDate: '2026-03-01T20:00:00',
      dataOra: '2026-03-01T20:00:00',
      startsAt: '2026-03-01T19:00:00.000Z',
      customerName: 'Rossi',
      cliente: 'Rossi',
      customerPhone: null,
      tableIds: [],
      notes: null,
      state: booking.state ?? 'pending',
      durationMinutes: null,
      motivo: null,
      cancelledAt: null,
      externalId: null,
      createdAt: '2026-01-01T10:00:00.000Z',
      updatedAt: '2026-01-01T10:00:00.000Z',
    },
  });
  return { subject: message.subject, event };
}

/** A viewer as the token verifier would build it. */
export function viewerOf(tenantId: string): Viewer {
  return { tenantId: trustedTenantId(tenantId), subject: null, roles: [], isAdmin: false, token: 'unused' };
}
