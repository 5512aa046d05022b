/**
 * The JSON of Google's booking server API v3 (Actions Center, reservations), as far as Coperto uses it: field names
 * in snake_case; int64 fields are strings in Google's JSON (proto3 mapping), numbers accepted too.
 */

/** The one service Coperto declares per merchant (the services feed): a table. */
export const GOOGLE_SERVICE_ID = 'prenotazione';

export type Int64 = string | number;

export interface ResourceIds {
  party_size?: number;
  room_id?: string;
  staff_id?: string;
}

/** A slot as BatchAvailabilityLookup names it (no merchant id: the request has it once). */
export interface SlotTime {
  service_id: string;
  start_sec: Int64;
  duration_sec?: Int64;
  resource_ids?: ResourceIds;
  availability_tag?: string;
  confirmation_mode?: string;
}

/** A slot of a booking. */
export interface Slot {
  merchant_id: string;
  service_id: string;
  start_sec: Int64;
  duration_sec?: Int64;
  resources?: ResourceIds;
  confirmation_mode?: string;
}

export interface UserInformation {
  user_id?: string;
  given_name?: string;
  family_name?: string;
  telephone?: string;
  email?: string;
}

export type BookingStatus = 'CONFIRMED' | 'CANCELED' | 'NO_SHOW' | 'BOOKING_STATUS_UNSPECIFIED';

export interface Booking {
  booking_id: string;
  slot: Slot;
  user_information?: UserInformation;
  status: BookingStatus;
  payment_information: { prepayment_status: 'PREPAYMENT_NOT_PROVIDED' };
}

/** Google's BookingFailure causes Coperto can give (the others are about payments, leases, offers and deals). */
export type BookingFailureCause =
  'SLOT_UNAVAILABLE' | 'BOOKING_ALREADY_CANCELLED' | 'BOOKING_NOT_CANCELLABLE' | 'CAUSE_UNSPECIFIED';

export interface BookingFailure {
  cause: BookingFailureCause;
  description?: string;
}

/** CreateBooking's and UpdateBooking's answer: the booking, or why not (always HTTP 200). */
export type BookingAnswer = { booking: Booking } | { booking_failure: BookingFailure };

export interface BatchAvailabilityLookupRequest {
  merchant_id: string;
  slot_time: SlotTime[];
}

export interface CreateBookingRequest {
  slot: Slot;
  user_information: UserInformation;
  idempotency_token: string;
  additional_request?: string;
}

export interface UpdateBookingRequest {
  update_mask?: string;
  booking: {
    booking_id: string;
    status?: string;
    slot?: Partial<Slot>;
  };
}

export interface GetBookingStatusRequest {
  booking_id: string;
}

export interface ListBookingsRequest {
  user_id: string;
}

/** The most slots one BatchAvailabilityLookup may ask about (a month of a day's slots for each party size). */
export const MAX_SLOT_TIMES = 20_000;
/** The largest party a slot may name: the availability search's own limit. */
export const MAX_PARTY_SIZE = 1000;

/** Seconds (an instant since the epoch, or a duration): at most 11 digits, so every instant is a valid date. */
const MAX_SECONDS = 99_999_999_999;
const int64 = {
  anyOf: [
    { type: 'integer', minimum: 0, maximum: MAX_SECONDS },
    { type: 'string', pattern: '^[0-9]{1,11}$' },
  ],
};
const id = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
const partySize = { type: 'integer', minimum: 1, maximum: MAX_PARTY_SIZE };

/** JSON Schemas of the request bodies (ajv, as every other gateway body): a bad request is a 400 naming it. */
export const REQUEST_SCHEMAS = {
  BatchAvailabilityLookup: {
    type: 'object',
    required: ['merchant_id', 'slot_time'],
    properties: {
      merchant_id: id(128),
      slot_time: {
        type: 'array',
        maxItems: MAX_SLOT_TIMES,
        items: {
          type: 'object',
          required: ['service_id', 'start_sec', 'resource_ids'],
          properties: {
            service_id: id(128),
            start_sec: int64,
            duration_sec: int64,
            resource_ids: { type: 'object', required: ['party_size'], properties: { party_size: partySize } },
          },
        },
      },
    },
  },
  CreateBooking: {
    type: 'object',
    required: ['slot', 'user_information', 'idempotency_token'],
    properties: {
      slot: {
        type: 'object',
        required: ['merchant_id', 'service_id', 'start_sec', 'resources'],
        properties: {
          merchant_id: id(128),
          service_id: id(128),
          start_sec: int64,
          duration_sec: int64,
          resources: { type: 'object', required: ['party_size'], properties: { party_size: partySize } },
        },
      },
      user_information: {
        type: 'object',
        properties: {
          user_id: id(256),
          given_name: { type: 'string', maxLength: 100 },
          family_name: { type: 'string', maxLength: 100 },
          telephone: { type: 'string', maxLength: 40 },
          email: { type: 'string', maxLength: 320 },
        },
      },
      idempotency_token: id(256),
      additional_request: { type: 'string', maxLength: 1000 },
    },
  },
  UpdateBooking: {
    type: 'object',
    required: ['booking'],
    properties: {
      update_mask: { type: 'string', maxLength: 200 },
      booking: {
        type: 'object',
        required: ['booking_id'],
        properties: {
          booking_id: id(300),
          status: { type: 'string', maxLength: 64 },
          slot: {
            type: 'object',
            properties: {
              start_sec: int64,
              duration_sec: int64,
              resources: { type: 'object', properties: { party_size: partySize } },
            },
          },
        },
      },
    },
  },
  GetBookingStatus: {
    type: 'object',
    required: ['booking_id'],
    properties: { booking_id: id(300) },
  },
  ListBookings: {
    type: 'object',
    required: ['user_id'],
    properties: { user_id: id(256) },
  },
} as const;
