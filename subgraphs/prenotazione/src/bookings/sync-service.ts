import { InputChecks, parseLocalDate } from '@coperto/domain';
import type { QuerySyncPrenotazioniArgs } from '../generated/resolvers-types.js';
import { prenotazioniFilter, type PrenotazioneStore } from './prenotazione-store.js';
import {
  groupToComplete,
  planSyncPage,
  SYNC_DEFAULT_LIMIT,
  SYNC_DEFAULT_WINDOW_DAYS,
  SYNC_MAX_LIMIT,
  SYNC_SETTLE_MS,
  type SyncPagePlan,
} from './sync.js';

/** The delta sync of bookings (`syncPrenotazioni`, `GET /api/prenotazioni/sync`). */
export class SyncService {
  constructor(
    private readonly store: PrenotazioneStore,
    private readonly now: () => Date,
  ) {}

  /** One page of the delta sync (see sync.ts for why it never skips or repeats a change). */
  async page(args: QuerySyncPrenotazioniArgs): Promise<SyncPagePlan & { limit: number }> {
    const checks = new InputChecks().intInRange('limit', args.limit, 1, SYNC_MAX_LIMIT);
    const since = args.modifiedSince == null ? undefined : new Date(args.modifiedSince);
    if (since && (Number.isNaN(since.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(args.modifiedSince!))) {
      checks.add('modifiedSince', 'must be an ISO 8601 timestamp');
    }
    const dal = args.dal == null ? undefined : parseLocalDate(args.dal);
    const al = args.al == null ? undefined : parseLocalDate(args.al);
    if (dal === null) checks.add('dal', 'must be a date YYYY-MM-DD');
    if (al === null) checks.add('al', 'must be a date YYYY-MM-DD');
    checks.throwIfAny();
    const limit = args.limit ?? SYNC_DEFAULT_LIMIT;
    const now = this.now().getTime();
    const watermark = new Date(now - SYNC_SETTLE_MS).toISOString();
    const after =
      since?.toISOString() ??
      (dal || al
        ? new Date(0).toISOString()
        : new Date(now - SYNC_DEFAULT_WINDOW_DAYS * 86_400_000).toISOString());
    if (after >= watermark) return { items: [], hasMore: false, serverTime: after, limit };
    const filter = prenotazioniFilter({ dal: dal ?? undefined, al: al ?? undefined });
    const fetched = await this.store.changes({ after, upTo: watermark, filter, limit: limit + 1 });
    const groupAt = groupToComplete(fetched, limit);
    const group = groupAt ? await this.store.changesAt(groupAt, filter) : [];
    return { ...planSyncPage(fetched, limit, watermark, group), limit };
  }
}
