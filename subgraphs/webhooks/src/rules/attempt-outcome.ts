import type { AttemptResult } from '../delivery/sender.js';
import type { AttemptRecord, DeliveryRecord, DeliveryState } from '../records.js';
import { nextAttemptAt } from './retry-schedule.js';

export interface AttemptOutcome {
  stato: DeliveryState;
  prossimoTentativoAt: string | null;
  attempt: AttemptRecord;
}

/** A 2xx answer delivers; anything else (another status, no answer) is a failed attempt. */
export function isDelivered(result: AttemptResult): boolean {
  return result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
}

/** What a delivery becomes after an attempt made at `at`: delivered, due again per the schedule, or failed. */
export function afterAttempt(
  delivery: Pick<DeliveryRecord, 'tentativi' | 'inizioSerie'>,
  result: AttemptResult,
  at: Date,
  waits?: readonly number[],
): AttemptOutcome {
  const delivered = isDelivered(result);
  const failedInSeries = delivery.tentativi.length + 1 - delivery.inizioSerie;
  const next = delivered ? null : nextAttemptAt(failedInSeries, at, waits);
  const prossimoTentativoAt = next?.toISOString() ?? null;
  return {
    stato: delivered ? 'consegnata' : next ? 'in_attesa' : 'fallita',
    prossimoTentativoAt,
    attempt: {
      at: at.toISOString(),
      statusCode: result.statusCode ?? null,
      durataMs: result.durataMs,
      errore: delivered ? null : (result.errore ?? 'failed'),
      prossimoTentativoAt,
    },
  };
}
