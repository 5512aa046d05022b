import type { TenantId } from '@coperto/auth';
import type { GaranziaRecord } from './garanzia-record.js';
import type { GaranzieStore } from './garanzie-store.js';
import {
  dueAt,
  guaranteeAmount,
  leavesTimeToPay,
  matchingRule,
  modeFor,
  repricedAmount,
  type BookingFacts,
} from './rules.js';
import { InvalidTransitionError, NotFoundError, WriteConflictError } from '@coperto/errors';
import { chiusuraOf, settlement, stuckRefund, type BookingEnd, type Settlement } from './state-flow.js';
import { StripeRefusal, type StripePayments } from './stripe-payments.js';

const MAX_CAS_ATTEMPTS = 8;

/** Where a requested guarantee's due time is kept (the scheduler: a keyed, idempotent upsert). */
export interface DueTimes {
  schedule(request: { tenantId: TenantId; key: string; dueAt: string }): Promise<unknown>;
}

export interface GuaranteeServiceDeps {
  tenantId: TenantId;
  store: GaranzieStore;
  /** Null when no Stripe key is configured: no guarantee is asked for. */
  stripe: StripePayments | null;
  dueTimes: DueTimes;
  now: () => Date;
}

/** A booking's guarantee from the policy, and its end with the booking: the Stripe calls and the stored state. */
export class GuaranteeService {
  constructor(private readonly deps: GuaranteeServiceDeps) {}

  /**
   * The booking's guarantee when a rule applies: stored `requested` first, then its intent made at Stripe (the
   * same idempotency key whatever instance or redelivery does it), then the intent stored. Null = no rule applies.
   */
  async ensure(booking: BookingFacts): Promise<GaranziaRecord | null> {
    const { store, stripe } = this.deps;
    let record = await store.guarantee(booking.id);
    if (!record) {
      const now = this.deps.now();
      if (!leavesTimeToPay(booking.startsAt, now)) return null;
      const policy = await store.policy();
      const rule = policy && matchingRule(policy, booking);
      if (!policy || !rule || !stripe) return null;
      const stamp = now.toISOString();
      record =
        (await store.insertGuarantee({
          id: booking.id,
          tipo: rule.tipo,
          modo: modeFor(rule.tipo, booking.startsAt, now),
          stato: 'requested',
          importo: guaranteeAmount(rule, booking.covers),
          importoPerCoperto: rule.importoPerCoperto,
          valuta: rule.valuta,
          scadenza: dueAt(now, policy.scadenzaMinuti, booking.startsAt),
          startsAt: booking.startsAt,
          penali: policy.penali,
          percentualeNoShow: policy.percentualeNoShow,
          tentativo: 1,
          account: policy.stripeAccount,
          intentId: null,
          clientSecret: null,
          customerId: null,
          paymentMethodId: null,
          addebitato: 0,
          rimborsato: 0,
          motivo: null,
          eventi: [],
          spostaPrenotazione: false,
          securedBy: null,
          version: 1,
          createdAt: stamp,
          updatedAt: stamp,
        })) ?? (await store.guarantee(booking.id));
    }
    if (!record || record.stato !== 'requested') return record;
    // Unpaid at its due time, the booking is cancelled (due-times.ts); the same due time again changes nothing.
    await this.deps.dueTimes.schedule({
      tenantId: this.deps.tenantId,
      key: record.id,
      dueAt: record.scadenza,
    });
    if (record.intentId || !stripe) return record;
    let created: Awaited<ReturnType<StripePayments['createIntent']>>;
    try {
      created = await stripe.createIntent({
        tenantId: this.deps.tenantId,
        bookingId: record.id,
        tentativo: record.tentativo,
        modo: record.modo,
        importo: record.importo,
        valuta: record.valuta,
        account: record.account,
      });
    } catch (error) {
      // Stripe refused it (e.g. an unknown connected account): nothing to retry; staff see why.
      if (!(error instanceof StripeRefusal)) throw error;
      const failed = { stato: 'failed' as const, motivo: error.stripeCode ?? error.message };
      return (await store.updateGuarantee(record, failed, this.stamp())) ?? store.guarantee(booking.id);
    }
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      if (record.intentId) return record;
      if (record.stato !== 'requested') {
        // The booking ended while the intent was being made: let it go at once.
        await stripe.settle(this.deps.tenantId, { ...record, ...created }, { op: 'cancel_intent' });
        return record;
      }
      const saved = await store.updateGuarantee(record, created, this.stamp());
      if (saved) return saved;
      record = (await store.guarantee(booking.id))!;
    }
    throw new WriteConflictError('Garanzia', booking.id);
  }

  /**
   * The booking's party changed: a guarantee still `requested` takes per cover times the new party, at Stripe first
   * (the intent's amount), then stored compare-and-set. Money or a card already in place keeps its amount; so does a
   * change Stripe refuses (the intent was paid meanwhile: its webhook secures the amount paid).
   */
  async reprice(bookingId: string, covers: number): Promise<GaranziaRecord | null> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.guarantee(bookingId);
      const amount = current && repricedAmount(current, covers);
      if (!current || amount === null) return current;
      try {
        await this.deps.stripe?.updateAmount(this.deps.tenantId, current, amount);
      } catch (error) {
        if (error instanceof StripeRefusal) return current;
        throw error;
      }
      const saved = await this.deps.store.updateGuarantee(current, { importo: amount }, this.stamp());
      if (saved) return saved;
    }
    throw new WriteConflictError('Garanzia', bookingId);
  }

  /**
   * Ends the booking's guarantee (see state-flow.ts `settlement`): the Stripe call first (idempotent per booking and
   * attempt), then the stored state, compare-and-set, so a redelivered or concurrent close charges once. A fee Stripe
   * refuses (a declined card) leaves the guarantee `failed` with Stripe's reason.
   */
  settle(bookingId: string, end: BookingEnd): Promise<GaranziaRecord | null> {
    return this.apply(bookingId, 'settle', (g) => settlement(g, chiusuraOf(g, end)));
  }

  /** Staff give a stuck guarantee's money back (a hold let go, a deposit refunded); 409 unless it is stuck. */
  async refundStuck(bookingId: string): Promise<GaranziaRecord> {
    const current = await this.deps.store.guarantee(bookingId);
    if (!current) throw new NotFoundError('Garanzia', bookingId);
    if (current.stato !== 'stuck') throw new InvalidTransitionError(current.stato, 'refunded');
    return (await this.apply(bookingId, 'stuck', stuckRefund))!;
  }

  private async apply(
    bookingId: string,
    step: 'settle' | 'stuck',
    planOf: (g: GaranziaRecord) => Settlement | null,
  ): Promise<GaranziaRecord | null> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.guarantee(bookingId);
      if (!current) return null;
      const plan = planOf(current);
      if (!plan) return current;
      let changes: Partial<GaranziaRecord> = {
        stato: plan.stato,
        addebitato: current.addebitato + plan.addebitato,
        rimborsato: current.rimborsato + plan.rimborsato,
        ...(plan.motivo ? { motivo: plan.motivo } : {}),
      };
      try {
        if (this.deps.stripe)
          await this.deps.stripe.settle(this.deps.tenantId, current, plan.operation, step);
      } catch (error) {
        if (!(error instanceof StripeRefusal)) throw error;
        changes = { stato: 'failed', motivo: error.stripeCode ?? error.message };
      }
      const saved = await this.deps.store.updateGuarantee(current, changes, this.stamp());
      if (saved) return saved;
    }
    throw new WriteConflictError('Garanzia', bookingId);
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}
