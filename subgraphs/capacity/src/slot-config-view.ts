import type { TenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import type { ReminderRule } from '@coperto/domain';
import type { OutboxMessage } from '@coperto/store';
import type { OpeningInterval } from './opening-hours.js';
import type { SlotConfig } from './slot-config-record.js';

/** CloudEvents `source` of capacity's events. */
const EVENT_SOURCE = 'coperto/capacity';

/** A reminder rule under both its names, as the API shows it. */
export function ruleView(rule: ReminderRule): { orePrima: number; hoursBefore: number } {
  return { orePrima: rule.hoursBefore, hoursBefore: rule.hoursBefore };
}

/** The seven days of the opening hours, weekday 0 (Sunday) first, as the API shows them. */
export function openingDays(config: SlotConfig): { weekday: number; intervals: OpeningInterval[] }[] {
  return config.openingHours.map((intervals, weekday) => ({ weekday, intervals }));
}

/** The settings as `GET /api/capacity/config` answers them (GraphQL `SlotConfig`, every field). */
export function slotConfigView(config: SlotConfig) {
  return {
    ...config,
    openingHours: openingDays(config),
    promemoria: config.reminders.map(ruleView),
    reminders: config.reminders.map(ruleView),
  };
}

/**
 * The `capacity.config.updated` event of a change, stored in the outbox with the write that makes it: data is the
 * settings after the change. promemoria re-plans the reminders from it (docs/reminders.md).
 */
export function configUpdatedEvent(tenantId: TenantId, config: SlotConfig, at: string): OutboxMessage {
  return buildEvent({
    tenantId,
    type: 'capacity.config.updated',
    source: EVENT_SOURCE,
    subject: 'config',
    time: at,
    data: slotConfigView(config),
  }).message;
}
