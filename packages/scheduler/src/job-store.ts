import { trustedTenantId } from '@coperto/auth';
import {
  DuplicateKeyError,
  type DocumentStore,
  type Filter,
  type OutboxMessage,
  type TenantCollection,
} from '@coperto/store';
import { jobId, scheduleChange } from './rules.js';
import type { JobHistoryEntry, JobPayload, JobRecord } from './types.js';

/**
 * The store partition every scheduler keeps its jobs in: not a tenant id (TENANT_ID_PATTERN has no `~`), so no
 * tenant's reads can ever reach it; the job's own tenant is its `tenant` field.
 */
export const SCHEDULER_PARTITION = trustedTenantId('~scheduler');

const RACE_RETRIES = 5;

/**
 * Indexes of job collections written by earlier versions, dropped at start-up: `tenant_key` (tenant, key), which
 * `key` replaced; left in place it would cost every job write an index entry that no query reads.
 */
export const RETIRED_INDEXES: readonly string[] = ['tenant_key'];

/** Reads and conditional writes of one scheduler collection (no rules beyond the compare-and-set filters). */
export class JobStore {
  readonly jobs: TenantCollection<JobRecord>;

  constructor(
    private readonly store: DocumentStore,
    readonly collection: string,
  ) {
    this.jobs = store.forTenant(SCHEDULER_PARTITION).collection<JobRecord>(collection);
  }

  /** The job indexes, and none of those an earlier version defined (RETIRED_INDEXES), on every start. */
  async ensureIndexes(): Promise<void> {
    await this.store.ensureIndexes(this.collection, [
      { name: 'due', fields: { state: 1, dueAt: 1 } },
      // Led by the key, so that `list` reads one booking's few jobs, not every job of its tenant (the embedded
      // store narrows by an index's first field only: by `tenant` it read them all, once per booking event).
      { name: 'key', fields: { key: 1 } },
    ]);
    await this.store.dropIndexes(this.collection, RETIRED_INDEXES);
  }

  get(tenant: string, key: string): Promise<JobRecord | null> {
    return this.jobs.findById(jobId(tenant, key));
  }

  /** The tenant's jobs of these keys that exist, in no order (one query). */
  getMany(tenant: string, keys: readonly string[]): Promise<JobRecord[]> {
    return this.jobs.findByIds(keys.map((key) => jobId(tenant, key)));
  }

  /**
   * The tenant's jobs whose key starts with `prefix`, by key. The tenant is matched through the id
   * (`<tenant>/<key>`, a tenant id has no `/`), not the `tenant` field: the filter's one indexed field is then the
   * key (its range is what makes the read small).
   */
  list(tenant: string, prefix: string): Promise<JobRecord[]> {
    const first = jobId(tenant, prefix);
    return this.jobs.find(
      { key: { $gte: prefix, $lt: prefixEnd(prefix) }, id: { $gte: first, $lt: prefixEnd(first) } },
      { sort: { key: 1 }, limit: 1000 },
    );
  }

  /** Inserts or re-arms the job (compare-and-set on its version; retried on a race). */
  async upsert(
    tenant: string,
    key: string,
    dueAt: string,
    payload: JobPayload,
    at: string,
  ): Promise<JobRecord> {
    const id = jobId(tenant, key);
    for (let attempt = 0; ; attempt++) {
      const existing = await this.jobs.findById(id);
      const change = scheduleChange(existing, dueAt, payload);
      if (change === 'unchanged') return existing!;
      try {
        if (change === 'insert')
          return await this.jobs.insertOne(newJob(id, tenant, key, dueAt, payload, at));
        const rearmed = await this.jobs.findOneAndUpdate(
          { id, version: existing!.version },
          {
            $set: {
              ...idle(),
              dueAt,
              payload,
              state: 'pending',
              attempts: 0,
              lastError: null,
              updatedAt: at,
            },
            $inc: { version: 1 },
          },
        );
        if (rearmed) return rearmed;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      if (attempt >= RACE_RETRIES) throw new Error(`schedule ${id}: lost ${RACE_RETRIES} races`);
    }
  }

  /** Pending → cancelled (a running claim then finds it is no longer its own); false when not pending. */
  async cancel(tenant: string, key: string, at: string): Promise<boolean> {
    const updated = await this.jobs.findOneAndUpdate(
      { id: jobId(tenant, key), state: 'pending' },
      { $set: { ...idle(), state: 'cancelled', updatedAt: at } },
    );
    return updated !== null;
  }

  /** Pending jobs due at `now` with no live lease, earliest first. */
  claimable(now: string, limit: number): Promise<JobRecord[]> {
    return this.jobs.find({ ...claimableFilter(now), dueAt: { $lte: now } }, { sort: { dueAt: 1 }, limit });
  }

  /** The earliest due time of a pending job with no live lease (null: none). */
  async earliestDue(now: string): Promise<string | null> {
    const next = await this.jobs.findOne(claimableFilter(now), { sort: { dueAt: 1 } });
    return next?.dueAt ?? null;
  }

  /** Claims the job as read (compare-and-set on its version, claim and lease): null when another instance won. */
  claim(job: JobRecord, entry: JobHistoryEntry, leaseUntil: string): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate(
      {
        id: job.id,
        state: 'pending',
        version: job.version,
        claimId: job.claimId,
        leaseUntil: job.leaseUntil,
      },
      {
        $set: { owner: entry.owner, claimId: entry.claimId, leaseUntil, updatedAt: entry.at },
        $inc: { attempts: 1 },
        $push: { history: entry },
      },
    );
  }

  /** Extends a running claim's lease (null when the claim is no longer current: cancelled, rescheduled, retaken). */
  renew(job: JobRecord, leaseUntil: string): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate(currentClaim(job), { $set: { leaseUntil } });
  }

  /** Marks the claimed version finished, with its events in the same write; null when the claim was no longer current. */
  finish(
    job: JobRecord,
    entry: JobHistoryEntry,
    result: { outcome: 'done' | 'skipped'; reason: string | null },
    events: readonly OutboxMessage[],
  ): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate(
      currentClaim(job),
      {
        $set: {
          ...idle(),
          state: 'done',
          outcome: result.outcome,
          reason: result.reason,
          doneAt: entry.at,
          updatedAt: entry.at,
        },
        $push: { history: entry },
      },
      events.length > 0 ? { events } : {},
    );
  }

  /** Releases the claim after a failure: retried from `retryAt`, or `failed` for good. */
  fail(job: JobRecord, entry: JobHistoryEntry, retryAt: string, final: boolean): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate(currentClaim(job), {
      $set: {
        ...idle(),
        leaseUntil: retryAt,
        state: final ? 'failed' : 'pending',
        lastError: entry.detail ?? null,
        updatedAt: entry.at,
      },
      $push: { history: entry },
    });
  }

  /** Records a claim's `lost` line (the job is no longer the claim's; nothing else changes). */
  async recordLost(job: JobRecord, entry: JobHistoryEntry): Promise<void> {
    await this.jobs.findOneAndUpdate({ id: job.id }, { $push: { history: entry } });
  }
}

function claimableFilter(now: string): Filter {
  return { state: 'pending', $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] };
}

function currentClaim(job: JobRecord): Filter {
  return { id: job.id, state: 'pending', version: job.version, claimId: job.claimId };
}

function idle() {
  return { owner: null, claimId: null, leaseUntil: null, outcome: null, reason: null, doneAt: null };
}

function newJob(
  id: string,
  tenant: string,
  key: string,
  dueAt: string,
  payload: JobPayload,
  at: string,
): JobRecord {
  return {
    id,
    tenant,
    key,
    dueAt,
    payload,
    state: 'pending',
    version: 1,
    ...idle(),
    attempts: 0,
    lastError: null,
    history: [],
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The least string above every string that starts with `prefix` (its last character raised by one): an ASCII
 * bound, which the embedded store can narrow a range by (`\uffff` it cannot); `\uffff` after it when there is no such.
 */
function prefixEnd(prefix: string): string {
  const last = prefix.length > 0 ? prefix.charCodeAt(prefix.length - 1) : 0xffff;
  return last < 0xffff ? prefix.slice(0, -1) + String.fromCharCode(last + 1) : `${prefix}\uffff`;
}
