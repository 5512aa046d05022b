import type { TavoloRecord } from '../tables/tavolo-record.js';

/**
 * A tenant's tables as the availability check reads them (pure projection of the whole list): every table by
 * id, and the active ones in the store's list order (name, id), all together and by room. Built once per
 * version of the tenant's tables (TenantTableDirectories), so a check costs its room, not the restaurant.
 * Shared by concurrent requests: never mutated.
 */
export interface TableDirectory {
  byId: ReadonlyMap<string, TavoloRecord>;
  active: readonly TavoloRecord[];
  /** Active tables of each room; tables in no room are not listed here (only in `active`). */
  activeByRoom: ReadonlyMap<string, readonly TavoloRecord[]>;
}

/** The directory of `tables` (as listed by the store, sorted by name then id). */
export function tableDirectory(tables: readonly TavoloRecord[]): TableDirectory {
  const byId = new Map(tables.map((t) => [t.id, t]));
  const active = tables.filter((t) => t.attivo);
  const activeByRoom = new Map<string, TavoloRecord[]>();
  for (const table of active) {
    if (table.salaId == null) continue;
    const room = activeByRoom.get(table.salaId);
    if (room) room.push(table);
    else activeByRoom.set(table.salaId, [table]);
  }
  return { byId, active, activeByRoom };
}

/** Active tables of the room (all rooms when `salaId` is null) with at least `minSeats` seats, in list order. */
export function activeTablesFitting(
  directory: TableDirectory,
  salaId: string | null,
  minSeats: number,
): TavoloRecord[] {
  const scope = salaId === null ? directory.active : (directory.activeByRoom.get(salaId) ?? []);
  return scope.filter((t) => t.capacita >= minSeats);
}

/** The tables of `ids` that exist (any state), in the order of `ids`. */
export function tablesById(directory: TableDirectory, ids: readonly string[]): TavoloRecord[] {
  return ids.flatMap((id) => {
    const table = directory.byId.get(id);
    return table ? [table] : [];
  });
}
