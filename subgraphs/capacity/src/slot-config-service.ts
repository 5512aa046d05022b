import { requireAdmin, type Viewer } from '@coperto/auth';
import { WriteConflictError } from '@coperto/errors';
import { DuplicateKeyError, type OutboxMessage } from '@coperto/store';
import { InputChecks, preferEnglish, type ReminderRule } from '@coperto/domain';
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
import { configUpdatedEvent } from './slot-config-view.js';
import { checkReminderRules, sameRules } from './reminder-rules.js';
import { canonicalTimeZone } from './time-zone.js';
import { checkTurnTimes, turnTimeRows } from './turn-times.js';

const MAX_CAS_ATTEMPTS = 5;

/** Rules for the slot settings: defaults until saved, administrators only, every field checked. */
export class SlotConfigService {
  constructor(
    private readonly deps: {
      store: SlotConfigStore;
      viewer: Viewer;
      timeZone: string;
      now: () => Date;
      /** Wakes the outbox relay after a write that stored events. */
      onEventsWritten: () => void;
    },
  ) {}

  /** The settings in force (the defaults while none are stored). */
  async get(): Promise<SlotConfig> {
    const stored = await this.deps.store.find();
    return stored ? slotConfigOf(stored) : defaultSlotConfig(this.deps.timeZone);
  }

  /**
   * Changes the fields sent; a weekday sent replaces that day's intervals. The write carries the
   * `capacity.config.updated` event (promemoria re-plans the reminders from it).
   */
  async update(input: SlotConfigInput): Promise<SlotConfig> {
    requireAdmin(this.deps.viewer, 'change the capacity settings');
    const { timeZone, reminders } = checkSlotConfigInput(input);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.store.find();
      const base = current ? slotConfigOf(current) : defaultSlotConfig(this.deps.timeZone);
      const now = after(this.deps.now(), current?.updatedAt);
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
        ...remindersOf(base, reminders, now),
        version: (current?.version ?? 0) + 1,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      const events = [configUpdatedEvent(this.deps.viewer.tenantId, slotConfigOf(next), now)];
      const saved = current
        ? await this.deps.store.replace(current.version, next, events)
        : await this.insertFirst(next, events);
      if (saved) {
        this.deps.onEventsWritten();
        return slotConfigOf(saved);
      }
    }
    throw new WriteConflictError('SlotConfig', 'config');
  }

  /** The first save; null when a concurrent first save won (the caller retries on top of it). */
  private async insertFirst(
    record: SlotConfigRecord,
    events: readonly OutboxMessage[],
  ): Promise<SlotConfigRecord | null> {
    try {
      return await this.deps.store.insert(record, events);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }
}

/**
 * The instant of a change: now, or just after the previous change when a clock (another instance's) is behind it,
 * so that the config's `updatedAt` orders its changes (promemoria keeps the newest rules by it).
 */
function after(now: Date, previous: string | undefined): string {
  const at = previous ? Math.max(now.getTime(), Date.parse(previous) + 1) : now.getTime();
  return new Date(at).toISOString();
}

/**
 * The reminder fields of the next record: the rules sent (their change time moves only when they differ), else
 * the current ones.
 */
function remindersOf(
  base: SlotConfig,
  sent: ReminderRule[] | undefined,
  now: string,
): Pick<SlotConfigRecord, 'reminders' | 'remindersUpdatedAt'> {
  const changed = sent !== undefined && !sameRules(sent, base.reminders);
  const updatedAt = changed ? now : base.remindersUpdatedAt;
  return {
    reminders: sent ?? base.reminders,
    ...(updatedAt !== null ? { remindersUpdatedAt: updatedAt } : {}),
  };
}

/**
 * Checks every field sent (all problems at once); returns the canonical zone name and the reminder rules (largest
 * first) when they were sent.
 */
export function checkSlotConfigInput(input: SlotConfigInput): {
  timeZone: string | undefined;
  reminders: ReminderRule[] | undefined;
} {
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
  const sentRules = preferEnglish(input.reminders, input.promemoria);
  if (sentRules === undefined && (input.reminders === null || input.promemoria === null))
    checks.add('reminders', 'must not be null');
  const reminders = sentRules ? checkReminderRules(sentRules, checks) : undefined;
  checks.throwIfAny();
  return { timeZone, reminders: reminders ?? undefined };
}
