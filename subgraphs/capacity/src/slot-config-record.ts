import {
  DEFAULT_MEAL_DURATION_MINUTES,
  DEFAULT_REMINDER_RULES,
  type ReminderRule,
  TURN_TIME_MAX_MINUTES,
  TURN_TIME_MIN_MINUTES,
  type TurnTime,
} from '@coperto/domain';
import { defaultOpeningHours, type WeeklyHours } from './opening-hours.js';

/** The tenant's slot settings as stored in `slot_config` (one record per tenant, id `default`). */
export interface SlotConfigRecord {
  id: string;
  slotMinutes: number;
  openingHours: WeeklyHours;
  maxCoversPerSlot: number;
  defaultMealMinutes: number;
  timeZone: string;
  /** Absent in records saved before turn times existed (read as the defaults). */
  turnTimes?: TurnTime[];
  reseat?: boolean;
  reseatFreezeMinutes?: number;
  /** Absent or null: no shortened seatings. */
  shortenedMinMinutes?: number | null;
  /** The reminder rules, largest first; absent until sent (the default applies). */
  reminders?: ReminderRule[];
  /** When the reminder rules last changed; absent while they never did. */
  remindersUpdatedAt?: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The settings in force: the stored record, or the defaults while none is stored. */
export interface SlotConfig {
  slotMinutes: number;
  openingHours: WeeklyHours;
  maxCoversPerSlot: number;
  defaultMealMinutes: number;
  timeZone: string;
  turnTimes: TurnTime[];
  reseat: boolean;
  reseatFreezeMinutes: number;
  /** Shortened seatings of at least this many minutes are offered; null: never. */
  shortenedMinMinutes: number | null;
  /** A reminder this many hours before each active booking (promemoria plans them), largest first. */
  reminders: ReminderRule[];
  /** When the rules last changed (null while the default applies). */
  remindersUpdatedAt: string | null;
  customized: boolean;
  updatedAt: string | null;
}

export const SLOT_CONFIG_ID = 'default';

export const DEFAULT_SLOT_MINUTES = 15;
export const DEFAULT_MAX_COVERS_PER_SLOT = 40;
export const DEFAULT_MEAL_MINUTES = DEFAULT_MEAL_DURATION_MINUTES;

export const SLOT_MINUTES_RANGE = [5, 240] as const;
export const MAX_COVERS_RANGE = [0, 100_000] as const;
export const MEAL_MINUTES_RANGE = [1, 720] as const;

export const DEFAULT_RESEAT = true;
export const DEFAULT_RESEAT_FREEZE_MINUTES = 60;
export const RESEAT_FREEZE_MINUTES_RANGE = [0, 1440] as const;
export const SHORTENED_MIN_MINUTES_RANGE = [30, 600] as const;
export const TURN_TIME_MINUTES_RANGE = [TURN_TIME_MIN_MINUTES, TURN_TIME_MAX_MINUTES] as const;
/** A row's maxCovers: the availability check's largest party (numeroPersone 1..1000). */
export const TURN_TIME_MAX_COVERS_RANGE = [1, 1000] as const;
export const MAX_TURN_TIMES = 20;

/** The defaults, in the restaurant's zone (RESTAURANT_TIMEZONE). */
export function defaultSlotConfig(timeZone: string): SlotConfig {
  return {
    slotMinutes: DEFAULT_SLOT_MINUTES,
    openingHours: defaultOpeningHours(),
    maxCoversPerSlot: DEFAULT_MAX_COVERS_PER_SLOT,
    defaultMealMinutes: DEFAULT_MEAL_MINUTES,
    timeZone,
    turnTimes: [],
    reseat: DEFAULT_RESEAT,
    reseatFreezeMinutes: DEFAULT_RESEAT_FREEZE_MINUTES,
    shortenedMinMinutes: null,
    reminders: [...DEFAULT_REMINDER_RULES],
    remindersUpdatedAt: null,
    customized: false,
    updatedAt: null,
  };
}

/** The settings a stored record stands for. */
export function slotConfigOf(record: SlotConfigRecord): SlotConfig {
  return {
    slotMinutes: record.slotMinutes,
    openingHours: record.openingHours,
    maxCoversPerSlot: record.maxCoversPerSlot,
    defaultMealMinutes: record.defaultMealMinutes,
    timeZone: record.timeZone,
    turnTimes: record.turnTimes ?? [],
    reseat: record.reseat ?? DEFAULT_RESEAT,
    reseatFreezeMinutes: record.reseatFreezeMinutes ?? DEFAULT_RESEAT_FREEZE_MINUTES,
    shortenedMinMinutes: record.shortenedMinMinutes ?? null,
    reminders: record.reminders ?? [...DEFAULT_REMINDER_RULES],
    remindersUpdatedAt: record.remindersUpdatedAt ?? null,
    customized: true,
    updatedAt: record.updatedAt,
  };
}
