import type { RestaurantEventType } from '@coperto/bus';

/** Every CloudEvents `type` an endpoint can ask for (`eventi`); an endpoint that names none gets them all. */
export const EVENT_TYPES = [
  'tables.status',
  'bookings.created',
  'bookings.updated',
  'bookings.cancelled',
  'waitlist.added',
  'waitlist.notified',
  'waitlist.seated',
  'waitlist.left',
  'waitlist.cancelled',
  'waitlist.erased',
  'guests.created',
  'guests.updated',
  'guests.merged',
  'guests.erased',
  'reminders.due',
  'capacity.config.updated',
  'webhooks.disabled',
] as const satisfies readonly RestaurantEventType[];

// A type the bus gains and this list lacks fails the typecheck here.
type Missing = Exclude<RestaurantEventType, (typeof EVENT_TYPES)[number]>;
const everyType: [Missing] extends [never] ? true : Missing = true;
void everyType;

export function isEventType(value: string): value is (typeof EVENT_TYPES)[number] {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether an endpoint subscribed to `eventi` (empty: all) gets an event of `type`. */
export function wantsEvent(eventi: readonly string[], type: string): boolean {
  return eventi.length === 0 || eventi.includes(type);
}
