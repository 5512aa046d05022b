import { randomUUID } from 'node:crypto';
import { requireAdmin, type Viewer } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import {
  InUseError,
  LockConflictError,
  LockNotOwnedError,
  NotFoundError,
  WriteConflictError,
} from '@coperto/errors';
import { InputChecks, preferEnglish } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import {
  geometryOf,
  placeTable,
  requireRoomSize,
  touchesGeometry,
  type GeometryInput,
  type RoomSize,
} from './geometry.js';
import {
  activeLock,
  LOCK_TTL_SECONDS,
  withActiveLock,
  writableBy,
  type LockRecord,
  type TavoloRecord,
} from './tavolo-record.js';
import type { TavoloChanges, TavoloStore } from './tavolo-store.js';
import type {
  LockInput,
  TableStatusInput,
  TavoliFilter,
  TavoloInput,
  TavoloPatch,
} from '../generated/resolvers-types.js';
import { ActiveBookingsOfTableDocument } from '../generated/prenotazione-calls.js';

export interface LockView extends LockRecord {
  tableId: string;
}

export interface TavoloServiceDeps {
  store: TavoloStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  now: () => Date;
  /** Called after a write that stored outbox events, so the relay publishes them at once. */
  onEventsWritten: () => void;
  /** Invalidates cached reads of the tenant's tables; awaited before a write is acknowledged. */
  onTablesChanged: () => Promise<void>;
  /** After a table is deleted: it leaves its combinations (CombinazioneService.removeTable). */
  onTableDeleted: (tableId: string) => Promise<void>;
}

const MAX_CAS_ATTEMPTS = 8;
const EVENT_SOURCE = 'coperto/tavolo';
/** Statuses of a table with a party at it (one turn: from `occupied` to `free` or `dirty`). */
const PARTY_STATUSES: ReadonlySet<string> = new Set(['occupied', 'open', 'payment_pending']);

/** Rules for tables: validation, aliases, status changes with their event, advisory locks. */
export class TavoloService {
  constructor(private readonly deps: TavoloServiceDeps) {}

  async list(query: TavoliFilter): Promise<TavoloRecord[]> {
    new InputChecks().intInRange('capacitaMin', query.capacitaMin, 0, 100_000).throwIfAny();
    const now = this.deps.now();
    return (await this.deps.store.list(query)).map((t) => withActiveLock(t, now));
  }

  async get(id: string): Promise<TavoloRecord | null> {
    const found = await this.deps.store.findById(id);
    return found && withActiveLock(found, this.deps.now());
  }

  async require(id: string): Promise<TavoloRecord> {
    const found = await this.get(id);
    if (!found) throw new NotFoundError('Tavolo', id);
    return found;
  }

  async create(input: TavoloInput): Promise<TavoloRecord> {
    const fields = mergeAliases(input);
    const checks = checkTavoloFields(fields);
    checks.required('name', fields.nome).required('seats', fields.capacita).throwIfAny();
    const room = fields.salaId ? await this.requireSala(fields.salaId) : null;
    const geometry = placeTable({}, input, room);
    const now = this.deps.now().toISOString();
    const created = await this.deps.store.insert({
      id: randomUUID(),
      nome: fields.nome!.trim(),
      capacita: fields.capacita!,
      stato: 'free',
      salaId: fields.salaId ?? null,
      attivo: fields.attivo ?? true,
      posizione: fields.posizione ?? null,
      ...geometry,
      orderId: null,
      pax: null,
      totalAmount: null,
      lock: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    await this.deps.onTablesChanged();
    return created;
  }

  async update(id: string, patch: TavoloPatch): Promise<TavoloRecord> {
    const fields = mergeAliases(patch);
    const checks = checkTavoloFields(fields);
    if (patch.nome === null && patch.name === null) checks.add('name', 'must not be null');
    if (patch.capacita === null && patch.seats === null) checks.add('seats', 'must not be null');
    checks.throwIfAny();
    const room = await this.roomForPatch(id, fields.salaId, patch);
    return this.writeWithRetry(id, patch.deviceId ?? undefined, (current) => ({
      ...(fields.nome != null ? { nome: fields.nome.trim() } : {}),
      ...(fields.capacita != null ? { capacita: fields.capacita } : {}),
      ...(fields.salaId !== undefined ? { salaId: fields.salaId } : {}),
      ...(fields.attivo != null ? { attivo: fields.attivo } : {}),
      ...(fields.posizione !== undefined ? { posizione: fields.posizione } : {}),
      ...(room !== undefined ? placeTable(current, patch, room) : {}),
    }));
  }

  /**
   * Refused (IN_USE) while an active booking that has not ended yet uses the table. A deleted table leaves its
   * combinations (a combination left with one table is deactivated).
   */
  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    await this.require(id);
    const { prenotazioni } = await this.deps.subgraphs.request(
      'prenotazione',
      ActiveBookingsOfTableDocument,
      { tableId: id },
      `Bearer ${this.deps.viewer.token}`,
    );
    // endsAt: prenotazione's own end of the stay (the booking's effective duration), never recomputed here.
    const now = this.deps.now().getTime();
    const upcoming = prenotazioni.filter((p) => Date.parse(p.endsAt) > now);
    if (upcoming.length > 0) {
      throw new InUseError(`Tavolo ${id} has ${upcoming.length} upcoming booking(s)`, {
        bookingIds: upcoming.map((p) => p.id),
      });
    }
    const deleted = await this.deps.store.delete(id);
    await this.deps.onTableDeleted(id);
    await this.deps.onTablesChanged();
    return { id, deleted };
  }

  /**
   * Any status from any status; moving to free clears the order fields, and so does a party sitting down at a table
   * that had none (`occupied` after free, dirty or reserved): its orderId, pax and bill are its own, never the
   * previous party's (reports and guests' spend read them). Publishes tables.status.
   */
  async setStatus(id: string, input: TableStatusInput): Promise<TavoloRecord> {
    new InputChecks()
      .text('orderId', input.orderId, { max: 200 })
      .intInRange('pax', input.pax, 0, 1000)
      .numberInRange('totalAmount', input.totalAmount, 0)
      .text('deviceId', input.deviceId, { min: 1, max: 200 })
      .throwIfAny();
    const saved = await this.writeWithRetry(
      id,
      input.deviceId ?? undefined,
      (current) =>
        input.status === 'free'
          ? { stato: 'free', orderId: null, pax: null, totalAmount: null }
          : {
              stato: input.status,
              ...(input.status === 'occupied' && !PARTY_STATUSES.has(current.stato)
                ? { orderId: null, pax: null, totalAmount: null }
                : {}),
              ...(input.orderId != null ? { orderId: input.orderId } : {}),
              ...(input.pax != null ? { pax: input.pax } : {}),
              ...(input.totalAmount != null ? { totalAmount: input.totalAmount } : {}),
            },
      (previous, next) => [
        buildEvent({
          tenantId: this.deps.viewer.tenantId,
          type: 'tables.status',
          source: EVENT_SOURCE,
          subject: next.id,
          data: { ...publicTavolo(next, this.deps.now()), previousStatus: previous.stato },
        }).message,
      ],
    );
    this.deps.onEventsWritten();
    return saved;
  }

  /** Takes or refreshes the lock: exactly one device holds a table, however many race for it. */
  async lock(id: string, input: LockInput): Promise<LockView> {
    const ttl = input.ttl ?? LOCK_TTL_SECONDS.default;
    new InputChecks()
      .text('deviceId', input.deviceId, { min: 1, max: 200 })
      .text('operatorName', input.operatorName, { max: 200 })
      .intInRange('ttl', ttl, LOCK_TTL_SECONDS.min, LOCK_TTL_SECONDS.max)
      .throwIfAny();
    const now = this.deps.now();
    const lock: LockRecord = {
      deviceId: input.deviceId,
      operatorName: input.operatorName ?? null,
      acquiredAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
      ttl,
    };
    const saved = await this.deps.store.updateWhere(id, writableBy(input.deviceId, now), {
      $set: { lock },
    });
    if (saved) {
      await this.deps.onTablesChanged();
      return { tableId: id, ...lock };
    }
    const current = await this.require(id);
    const holder = activeLock(current, this.deps.now());
    if (holder) throw new LockConflictError(holder);
    // The lock expired between the write and the read: the caller may simply try again.
    throw new LockConflictError({ deviceId: 'unknown', operatorName: null, expiresAt: now.toISOString() });
  }

  /** Only the holder releases; no lock → released false; another device's lock → LOCK_NOT_OWNED. */
  async unlock(id: string, deviceId: string): Promise<{ tableId: string; released: boolean }> {
    new InputChecks().text('deviceId', deviceId, { min: 1, max: 200 }).throwIfAny();
    const now = this.deps.now();
    const released = await this.deps.store.updateWhere(
      id,
      { 'lock.deviceId': deviceId, 'lock.expiresAt': { $gt: now.toISOString() } },
      { $set: { lock: null } },
    );
    if (released) {
      await this.deps.onTablesChanged();
      return { tableId: id, released: true };
    }
    const current = await this.require(id);
    const holder = activeLock(current, now);
    if (holder && holder.deviceId !== deviceId) throw new LockNotOwnedError();
    return { tableId: id, released: false };
  }

  /** Administrator only: releases whatever lock there is. */
  async forceUnlock(id: string): Promise<{ tableId: string; released: boolean }> {
    requireAdmin(this.deps.viewer, 'force a lock release');
    const released = await this.deps.store.updateWhere(id, {}, { $set: { lock: null } });
    if (!released) throw new NotFoundError('Tavolo', id);
    await this.deps.onTablesChanged();
    return { tableId: id, released: true };
  }

  /**
   * Read-compute-write with compare-and-set on `version` (and the lock rule when a device writes), so
   * concurrent writers never lose each other's changes; the events go into the same atomic write. Only the
   * changed fields are written: never the lock (lock operations do not bump the version, so a copy of the
   * whole record would erase a lock taken meanwhile or bring back one released meanwhile).
   */
  private async writeWithRetry(
    id: string,
    deviceId: string | undefined,
    change: (current: TavoloRecord) => TavoloChanges,
    events?: (previous: TavoloRecord, next: TavoloRecord) => ReturnType<typeof buildEvent>['message'][],
  ): Promise<TavoloRecord> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.findById(id);
      if (!current) throw new NotFoundError('Tavolo', id);
      const now = this.deps.now();
      if (deviceId !== undefined) {
        const holder = activeLock(current, now);
        if (holder && holder.deviceId !== deviceId) throw new LockConflictError(holder);
      }
      const changes: TavoloChanges = { ...change(current), updatedAt: now.toISOString() };
      const next: TavoloRecord = { ...current, ...changes, version: current.version + 1 };
      const saved = await this.deps.store.update(id, current.version, changes, {
        ...(deviceId !== undefined ? { condition: writableBy(deviceId, now) } : {}),
        ...(events ? { events: events(current, next) } : {}),
      });
      if (saved) {
        await this.deps.onTablesChanged();
        return withActiveLock(saved, now);
      }
    }
    throw new WriteConflictError('Tavolo', id);
  }

  private requireSala(salaId: string): Promise<RoomSize> {
    return requireRoomSize(this.deps.subgraphs, this.deps.viewer, salaId);
  }

  /**
   * The room a patch's geometry is checked against: the new room when it moves the table, else the table's
   * room when it changes the geometry (null: no room); undefined when the patch touches neither.
   */
  private async roomForPatch(
    id: string,
    salaId: string | null | undefined,
    patch: GeometryInput,
  ): Promise<RoomSize | null | undefined> {
    if (salaId === undefined && !touchesGeometry(patch)) return undefined;
    const target = salaId !== undefined ? salaId : (await this.require(id)).salaId;
    return target ? this.requireSala(target) : null;
  }
}

/** The table as events and the API show it (aliases included, internal version left out). */
export function publicTavolo(tavolo: TavoloRecord, now: Date) {
  const { version: _version, ...rest } = withActiveLock(tavolo, now);
  return {
    ...rest,
    ...geometryOf(rest),
    name: rest.nome,
    seats: rest.capacita,
    status: rest.stato,
    roomId: rest.salaId,
    lock: rest.lock ? { tableId: rest.id, ...rest.lock } : null,
  };
}

function mergeAliases(input: TavoloInput) {
  return {
    nome: preferEnglish(input.name, input.nome),
    capacita: preferEnglish(input.seats, input.capacita),
    salaId: input.roomId !== undefined ? input.roomId : input.salaId,
    attivo: input.attivo,
    posizione: input.posizione,
  };
}

function checkTavoloFields(fields: ReturnType<typeof mergeAliases>): InputChecks {
  return new InputChecks()
    .text('name', fields.nome, { min: 1, max: 100 })
    .intInRange('seats', fields.capacita, 1, 1000)
    .text('posizione', fields.posizione, { max: 100 });
}
