import type { Viewer } from '@coperto/auth';
import { AppError, ForbiddenError, WriteConflictError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import type { GaranziaRecord } from './garanzia-record.js';
import type { GaranzieStore } from './garanzie-store.js';
import { GaranziaInPostoDocument } from './generated/prenotazione-calls.js';
import { afterBookingMove, applyEvent, type EventOutcome, type StripeFacts } from './state-flow.js';
import { stripeFactsOf } from './stripe-event.js';

const MAX_CAS_ATTEMPTS = 8;

export interface WebhookServiceDeps {
  store: GaranzieStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
}

/**
 * Applies the Stripe events the gateway verified (POST /webhooks/stripe). The gateway hands each one over with a
 * payments token for the tenant and booking in the intent's metadata; the event must name the same ones.
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async receive(json: string): Promise<EventOutcome> {
    const grant = this.deps.viewer.grant;
    if (grant?.role !== 'payments') throw new ForbiddenError('Only the Stripe webhook hands events over');
    const facts = stripeFactsOf(json);
    if (facts.tenantId !== this.deps.viewer.tenantId || facts.bookingId !== grant.bookingId) {
      throw new ForbiddenError('The event is for another booking than the token');
    }
    const outcome = await this.apply(facts);
    await this.deps.store.recordEvent({
      id: facts.eventId,
      type: facts.type,
      prenotazioneId: facts.bookingId,
      intentId: facts.intentId,
      esito: outcome,
      receivedAt: this.deps.now().toISOString(),
    });
    return outcome;
  }

  private async apply(facts: StripeFacts): Promise<EventOutcome> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.guarantee(facts.bookingId!);
      // No guarantee of ours (never made, or an intent made elsewhere): recorded only.
      if (!current) return 'recorded';
      const verdict = applyEvent(current, facts);
      if (!verdict.changes) {
        // A repeated event: finish a booking move an earlier delivery could not make.
        if (current.spostaPrenotazione) await this.moveBooking(current);
        return verdict.outcome;
      }
      const saved = await this.deps.store.updateGuarantee(current, verdict.changes, this.stamp());
      if (!saved) continue;
      // The booking had ended: the money it never took is stuck (outcome `stuck`, as for money after a release).
      if (saved.spostaPrenotazione && (await this.moveBooking(saved)) === 'stuck') return 'stuck';
      return verdict.outcome;
    }
    throw new WriteConflictError('Garanzia', facts.bookingId!);
  }

  /**
   * The guarantee is in place: the booking to caparra_pagata. A booking that has ended meanwhile (or is gone) cannot
   * take it: the money is then `stuck` for staff. Prenotazione unreachable: thrown (the event is answered 503 and
   * Stripe's retry, a duplicate here, makes the move). Returns the guarantee's state after it (null: gone).
   */
  private async moveBooking(g: GaranziaRecord): Promise<GaranziaRecord['stato'] | null> {
    let ended = false;
    try {
      const authorization = `Bearer ${this.deps.viewer.token}`;
      await this.deps.subgraphs.request('prenotazione', GaranziaInPostoDocument, { id: g.id }, authorization);
    } catch (error) {
      if (!(error instanceof AppError) || !['INVALID_TRANSITION', 'NOT_FOUND'].includes(error.code))
        throw error;
      ended = true;
    }
    for (let current = g, attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const stored = await this.deps.store.updateGuarantee(
        current,
        afterBookingMove(current, ended),
        this.stamp(),
      );
      if (stored) return stored.stato;
      const again = await this.deps.store.guarantee(g.id);
      if (!again) return null;
      current = again;
    }
    return null;
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}
