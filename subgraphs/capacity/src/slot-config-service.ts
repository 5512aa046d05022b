import { requireAdmin, type Viewer } from '@coperto/auth';
import { WriteConflictError } from '@coperto/errors';
import { DuplicateKeyError } from '@coperto/store';
import { InputChecks } from '@coperto/domain';
import type { SlotConfigInput } from './generated/resolvers-types.js';
import { checkOpeningDays, replaceDays } from './opening-hours.js';
import {
  defaultSlotConfig,
  MAX_COVERS_RANGE,
  MEAL_MINUTES_RANGE,
  RESEAT_FREEZE_MINUTES_RANGE,
  SHORTENED_MIN_MINUTES_RANGE,
  SLOT_CONFIG_ID,
  SLOT_MINUTES_RANGE,
  slotConfigOf,
  type SlotConfig,
  type SlotConfigRecord,
} from './slot-config-record.js';
import type { SlotConfigStore } from './slot-config-store.js';
import { canonicalTimeZone } from './time-zone.js';
import { checkTurnTimes, turnTimeRows } from './turn-times.js';

const MAX_CAS_ATTEMPTS = 5;

/** Rules for the slot settings: defaults until saved, administrators only, every field checked. */
export class SlotConfigService {
  constructor(
    private readonly deps: { store: SlotConfigStore; viewer: Viewer; timeZone: string; now: () => Date },
  ) {}

  /** The settings in force (the defaults while none are stored). */
  async get(): Promise<SlotConfig> {
    const stored = await this.deps.store.find();
    return stored ? slotConfigOf(stored) : defaultSlotConfig(this.deps.timeZone);
  }

  /** Changes the fields sent; a weekday sent replaces that day's intervals. */
  async update(input: SlotConfigInput): Promise<SlotConfig> {
    requireAdmin(this.deps.viewer, 'change the capacity settings');
    const timeZone = checkSlotConfigInput(input);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.find();
      const base = current ? slotConfigOf(current) : defaultSlotConfig(this.deps.timeZone);
      const now = this.deps.now().toISOString();
      const next: SlotConfigRecord = {
        id: SLOT_CONFIG_ID,
        slotMinutes: input.slotMinutes ?? base.slotMinutes,
        openingHours: input.openingHours
          ? replaceDays(base.openingHours, input.openingHours)
          : base.openingHours,
        maxCoversPerSlot: input.maxCoversPerSlot ?? base.maxCoversPerSlot,
        defaultMealMinutes: input.defaultMealMinutes ?? base.defaultMealMinutes,
        timeZone: timeZone ?? base.timeZone,
        turnTimes: input.turnTimes ? turnTimeRows(input.turnTimes) : base.turnTimes,
        reseat: input.reseat ?? base.reseat,
        reseatFreezeMinutes: input.reseatFreezeMinutes ?? base.reseatFreezeMinutes,
        // null is a value here (never); only a field not sent keeps the current one
        shortenedMinMinutes:
          input.shortenedMinMinutes === undefined ? base.shortenedMinMinutes : input.shortenedMinMinutes,
        version: (current?.version ?? 0) + 1,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      const saved = current
        ? await this.deps.store.replace(current.version, next)
        : await this.insertFirst(next);
      if (saved) return slotConfigOf(saved);
    }
    throw new WriteConflictError('SlotConfig', 'config');
  }

  /** The first save; null when a concurrent first save won (the caller retries on top of it). */
  private async insertFirst(record: SlotConfigRecord): Promise<SlotConfigRecord | null> {
    try {
      return await this.deps.store.insert(record);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }
}

/** Checks every field sent (all problems at once); returns the canonical zone name when one was sent. */
export function checkSlotConfigInput(input: SlotConfigInput): string | undefined {
  const checks = new InputChecks()
    .intInRange('slotMinutes', input.slotMinutes, ...SLOT_MINUTES_RANGE)
    .intInRange('maxCoversPerSlot', input.maxCoversPerSlot, ...MAX_COVERS_RANGE)
    .intInRange('defaultMealMinutes', input.defaultMealMinutes, ...MEAL_MINUTES_RANGE)
    .intInRange('reseatFreezeMinutes', input.reseatFreezeMinutes, ...RESEAT_FREEZE_MINUTES_RANGE)
    .intInRange('shortenedMinMinutes', input.shortenedMinMinutes, ...SHORTENED_MIN_MINUTES_RANGE);
  for (const field of [
    'slotMinutes',
    'openingHours',
    'maxCoversPerSlot',
    'defaultMealMinutes',
    'timeZone',
    'turnTimes',
    'reseat',
    'reseatFreezeMinutes',
  ] as const) {
    if (input[field] === null) checks.add(field, 'must not be null');
  }
  if (input.openingHours) checkOpeningDays(input.openingHours, checks);
  if (input.turnTimes) checkTurnTimes(input.turnTimes, checks);
  let timeZone: string | undefined;
  if (input.timeZone != null) {
    timeZone = canonicalTimeZone(input.timeZone) ?? undefined;
    if (!timeZone) checks.add('timeZone', 'must be an IANA time zone such as Europe/Rome');
  }
  checks.throwIfAny();
  return timeZone;
}
