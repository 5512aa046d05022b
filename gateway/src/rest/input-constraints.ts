import {
  ACTIVE_BOOKING_STATES,
  EMAIL_FIELD_PATTERN,
  EMAIL_MAX_LENGTH,
  TURN_TIME_MAX_MINUTES,
  TURN_TIME_MIN_MINUTES,
} from '@coperto/domain';
import {
  MAX_CAPACITY_PER_SLOT,
  MAX_COVERS_RANGE,
  MAX_INTERVALS_PER_DAY,
  MAX_TURN_TIMES,
  MEAL_MINUTES_RANGE,
  NAME_MAX_LENGTH,
  REMINDER_LIMITS,
  RESEAT_FREEZE_MINUTES_RANGE,
  SHORTENED_MIN_MINUTES_RANGE,
  SLOT_MINUTES_RANGE,
  TURN_TIME_MAX_COVERS_RANGE,
} from '@coperto/subgraph-capacity';
import { MAX_BATCH_ITEMS } from '@coperto/subgraph-bookings';
import {
  ACCOUNT_ID_PATTERN,
  CURRENCY_PATTERN,
  DUE_MINUTES_RANGE,
  POLICY_LIMITS,
} from '@coperto/subgraph-garanzie';
import { CANALE_LIMITS, GOOGLE_LIMITS, MERCHANT_ID_PATTERN } from '@coperto/subgraph-canali';
import { GUEST_LIMITS, LANGUAGE_PATTERN } from '@coperto/subgraph-ospiti';
import { HISTORY_LIMITS } from '@coperto/subgraph-rapporti';
import {
  DISPONIBILITA_LIMIT_RANGE,
  DISPONIBILITA_MAX_COVERS,
  MAX_DURATION_MINUTES,
  MAX_TABLES_PER_BOOKING,
  OPTION_TTL_RANGE,
  SYNC_MAX_LIMIT,
} from '@coperto/subgraph-prenotazione';
import {
  COMBINAZIONE_COVERS,
  COMBINAZIONE_TABLES,
  DURATA_MEDIA_PASTO_MINUTES,
  LOCK_TTL_SECONDS,
  MAX_TABLE_SIDE,
} from '@coperto/subgraph-tavolo';
import { EVENT_TYPES, WEBHOOK_LIMITS, WEBHOOK_URL_PATTERN } from '@coperto/subgraph-webhooks';

/** A local wall-clock time 'HH:MM' (00:00..23:59). */
const CLOCK_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d$';
/** The shape of an IANA zone name (`UTC`, `Europe/Rome`, `America/Argentina/La_Rioja`), any letter case. */
const TIME_ZONE_NAME = '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$';

/** A JSON Schema fragment (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/**
 * What a field's GraphQL type does not say: the ranges, lengths, patterns and nullability the services enforce
 * (a date's pattern is its scalar's, date-patterns.ts).
 * Merged into the JSON Schema derived from the GraphQL type (openapi/json-schema.ts). `nullable: false` drops
 * the `null` a nullable GraphQL type allows (the service refuses an explicit null).
 */
export interface FieldConstraint extends JsonSchema {
  nullable?: false;
}

const int = (minimum: number, maximum: number): FieldConstraint => ({ minimum, maximum });
/** A text with at least one character that is not white space. */
export const NOT_BLANK_PATTERN = '\\S';
/** Text the service trims before its length check: at least one non-blank character. */
const text = (maxLength: number, options: { required?: boolean } = {}): FieldConstraint =>
  options.required ? { minLength: 1, maxLength, pattern: NOT_BLANK_PATTERN } : { maxLength };
const notNull: FieldConstraint = { nullable: false };
const positive: FieldConstraint = { exclusiveMinimum: 0 };
const deviceId = text(200, { required: true });
/** An id the service trims and refuses blank (combinationId, opzioneId). */
const idText = text(200, { required: true });
/** Table ids: distinct, none blank. */
const tableIdList = (minItems: number, maxItems: number): FieldConstraint => ({
  ...(minItems > 0 ? { minItems } : {}),
  maxItems,
  uniqueItems: true,
  items: { minLength: 1, pattern: NOT_BLANK_PATTERN },
});
const covers = { ...int(1, 1000), ...notNull };
/** An email field: an address (@coperto/domain's one rule, as the services test it), or empty. */
const email: FieldConstraint = { maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_FIELD_PATTERN };

const SALA = {
  codice: text(50, { required: true }),
  descrizione: text(500),
  width: positive,
  height: positive,
};
const TAVOLO = {
  nome: { ...text(100, { required: true }), ...notNull },
  name: { ...text(100, { required: true }), ...notNull },
  capacita: { ...int(1, 1000), ...notNull },
  seats: { ...int(1, 1000), ...notNull },
  posizione: text(100),
  x: { minimum: 0 },
  y: { minimum: 0 },
  width: { exclusiveMinimum: 0, maximum: MAX_TABLE_SIDE },
  height: { exclusiveMinimum: 0, maximum: MAX_TABLE_SIDE },
  rotation: int(0, 359),
};
const PRENOTAZIONE = {
  covers: { ...int(1, 1000), ...notNull },
  numeroPersone: { ...int(1, 1000), ...notNull },
  bookingDate: notNull,
  dataOra: notNull,
  customerName: { ...text(200, { required: true }), ...notNull },
  cliente: { ...text(200, { required: true }), ...notNull },
  customerPhone: text(50),
  customerEmail: email,
  lingua: notNull,
  language: notNull,
  notes: text(2000),
  durationMinutes: int(1, MAX_DURATION_MINUTES),
  tableIds: tableIdList(0, MAX_TABLES_PER_BOOKING),
  combinationId: idText,
};
const OPZIONE = {
  covers,
  numeroPersone: covers,
  bookingDate: notNull,
  dataOra: notNull,
  tableIds: tableIdList(1, MAX_TABLES_PER_BOOKING),
  combinationId: idText,
  ttl: int(...OPTION_TTL_RANGE),
  durationMinutes: int(1, MAX_DURATION_MINUTES),
};
const COMBINAZIONE = {
  nome: { ...text(100, { required: true }), ...notNull },
  name: { ...text(100, { required: true }), ...notNull },
  tableIds: { ...tableIdList(COMBINAZIONE_TABLES.min, COMBINAZIONE_TABLES.max), ...notNull },
  capacitaMin: { ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max), ...notNull },
  minCovers: { ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max), ...notNull },
  capacitaMax: { ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max), ...notNull },
  maxCovers: { ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max), ...notNull },
  attivo: notNull,
};
/** A waitlist party: a booking's limits (seating it creates one). */
const VOCE_ATTESA = {
  customerName: { ...text(200, { required: true }), ...notNull },
  cliente: { ...text(200, { required: true }), ...notNull },
  covers,
  numeroPersone: covers,
  customerPhone: text(50),
  notes: text(2000),
};
/** A guest's profile (the ospiti service's own checks). */
const labels = {
  maxItems: GUEST_LIMITS.labelsMaxItems,
  items: { minLength: 1, maxLength: GUEST_LIMITS.labelMaxLength, pattern: NOT_BLANK_PATTERN },
};
const OSPITE = {
  nome: text(GUEST_LIMITS.nameMaxLength, { required: true }),
  name: text(GUEST_LIMITS.nameMaxLength, { required: true }),
  telefono: text(50),
  phone: text(50),
  email,
  lingua: { pattern: LANGUAGE_PATTERN },
  language: { pattern: LANGUAGE_PATTERN },
  // A list, never null (`[]` clears it); consent true or false.
  tag: { ...labels, ...notNull },
  tags: { ...labels, ...notNull },
  allergie: { ...labels, ...notNull },
  allergies: { ...labels, ...notNull },
  note: text(GUEST_LIMITS.notesMaxLength),
  notes: text(GUEST_LIMITS.notesMaxLength),
  consensoMarketing: notNull,
  marketingConsent: notNull,
};
const CATEGORY = {
  name: { ...text(NAME_MAX_LENGTH, { required: true }), ...notNull },
  capacityPerSlot: { ...int(0, MAX_CAPACITY_PER_SLOT), ...notNull },
};

/** A webhook endpoint: its URL's shape (whether it resolves to a public address is state: a 400 the route names) and event types. */
const webhookUrl: FieldConstraint = { maxLength: WEBHOOK_LIMITS.urlMaxLength, pattern: WEBHOOK_URL_PATTERN };
const eventTypes: FieldConstraint = { items: { enum: [...EVENT_TYPES] } };
const WEBHOOK = {
  url: { ...webhookUrl, ...notNull },
  eventi: { ...eventTypes, ...notNull },
  events: { ...eventTypes, ...notNull },
  attivo: notNull,
  active: notNull,
};

const CANALE = {
  nome: text(CANALE_LIMITS.nomeMaxLength),
  name: text(CANALE_LIMITS.nomeMaxLength),
  origini: { maxItems: CANALE_LIMITS.maxOrigins, items: { maxLength: CANALE_LIMITS.originMaxLength } },
  origins: { maxItems: CANALE_LIMITS.maxOrigins, items: { maxLength: CANALE_LIMITS.originMaxLength } },
};

const percent = { ...int(0, 100), ...notNull };
const REGOLA_GARANZIA = {
  tipo: notNull,
  type: notNull,
  minCoperti: { ...int(1, POLICY_LIMITS.maxCovers), ...notNull },
  minCovers: { ...int(1, POLICY_LIMITS.maxCovers), ...notNull },
  giorni: { maxItems: 7, items: int(1, 7), ...notNull },
  weekdays: { maxItems: 7, items: int(1, 7), ...notNull },
  dalle: { pattern: CLOCK_PATTERN, ...notNull },
  from: { pattern: CLOCK_PATTERN, ...notNull },
  alle: { pattern: `${CLOCK_PATTERN}|^24:00$`, ...notNull },
  to: { pattern: `${CLOCK_PATTERN}|^24:00$`, ...notNull },
  importoPerCoperto: { ...int(1, POLICY_LIMITS.maxAmountPerCover), ...notNull },
  amountPerCover: { ...int(1, POLICY_LIMITS.maxAmountPerCover), ...notNull },
  valuta: { pattern: CURRENCY_PATTERN, ...notNull },
  currency: { pattern: CURRENCY_PATTERN, ...notNull },
};
const PENALE_GARANZIA = {
  oreAlmeno: { ...int(0, POLICY_LIMITS.maxHours), ...notNull },
  minHours: { ...int(0, POLICY_LIMITS.maxHours), ...notNull },
  percentuale: percent,
  percent,
};
const POLITICA_GARANZIE = {
  regole: { maxItems: POLICY_LIMITS.rules },
  rules: { maxItems: POLICY_LIMITS.rules },
  penali: { maxItems: POLICY_LIMITS.penalties },
  penalties: { maxItems: POLICY_LIMITS.penalties },
  scadenzaMinuti: int(...DUE_MINUTES_RANGE),
  dueMinutes: int(...DUE_MINUTES_RANGE),
  percentualeNoShow: int(0, 100),
  noShowPercent: int(0, 100),
};

/** `Type.field` of GraphQL input types, or `Operation.$variable` for a top-level variable of an operation. */
export const INPUT_CONSTRAINTS: Readonly<Record<string, FieldConstraint>> = {
  ...prefixed('SalaInput', SALA),
  ...prefixed('CanaleInput', CANALE),
  ...prefixed('RegolaGaranziaInput', REGOLA_GARANZIA),
  ...prefixed('PenaleGaranziaInput', PENALE_GARANZIA),
  ...prefixed('PoliticaGaranzieInput', POLITICA_GARANZIE),
  'UpdateStripeAccount.$accountId': { pattern: ACCOUNT_ID_PATTERN },
  'IntegrazioneGoogleInput.merchantId': {
    minLength: 1,
    maxLength: GOOGLE_LIMITS.merchantIdMaxLength,
    pattern: MERCHANT_ID_PATTERN,
  },
  ...prefixed('SalaPatch', { ...SALA, codice: { ...SALA.codice, ...notNull } }),
  ...prefixed('TavoloInput', TAVOLO),
  ...prefixed('TavoloPatch', { ...TAVOLO, deviceId }),
  'TavoliFilter.capacitaMin': int(0, 100_000),
  'DisponibilitaInput.numeroPersone': int(1, 1000),
  'DisponibilitaInput.durataMediaPasto': int(DURATA_MEDIA_PASTO_MINUTES.min, DURATA_MEDIA_PASTO_MINUTES.max),
  'TableStatusInput.orderId': text(200),
  'TableStatusInput.pax': int(0, 1000),
  'TableStatusInput.totalAmount': { minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  'TableStatusInput.deviceId': deviceId,
  'LockInput.deviceId': deviceId,
  'LockInput.operatorName': text(200),
  'LockInput.ttl': int(LOCK_TTL_SECONDS.min, LOCK_TTL_SECONDS.max),
  'UnlockInput.deviceId': deviceId,
  ...prefixed('PrenotazioneInput', PRENOTAZIONE),
  ...prefixed('PrenotazionePatch', PRENOTAZIONE),
  // A create's only (the batch's idempotency key): PrenotazionePatch has no externalId.
  'PrenotazioneInput.externalId': text(200, { required: true }),
  'PrenotazioneInput.opzioneId': { ...idText, ...notNull },
  'PrenotazioneInput.holdId': { ...idText, ...notNull },
  ...prefixed('OpzioneInput', OPZIONE),
  ...prefixed('CombinazioneInput', COMBINAZIONE),
  ...prefixed('VoceAttesaInput', VOCE_ATTESA),
  'SiediAttesaInput.tableIds': tableIdList(1, MAX_TABLES_PER_BOOKING),
  'SiediAttesaInput.combinationId': { minLength: 1, pattern: NOT_BLANK_PATTERN },
  'AnnullaAttesaInput.motivo': text(500),
  'AnnullaAttesaInput.state': { enum: ['left', 'cancelled', null] },
  'AnnullaPrenotazione.$motivo': text(500),
  'SyncPrenotazioni.$limit': int(1, SYNC_MAX_LIMIT),
  'UploadBatch.$items': { type: 'array', maxItems: MAX_BATCH_ITEMS },
  ...prefixed('OspitePatch', OSPITE),
  'ListOspiti.$q': text(GUEST_LIMITS.searchTextMaxLength),
  'ListOspiti.$tag': text(GUEST_LIMITS.labelMaxLength),
  'ListOspiti.$limite': int(1, GUEST_LIMITS.searchMaxLimit),
  'UnisciOspiti.$ospiteId': text(200, { required: true }),
  ...prefixed('NuovoWebhook', WEBHOOK),
  ...prefixed('WebhookPatch', WEBHOOK),
  'ConsegneWebhook.$limite': int(1, WEBHOOK_LIMITS.deliveriesMax),
  ...prefixed('ProductionCategoryInput', CATEGORY),
  ...prefixed('ProductionCategoryPatch', CATEGORY),
  'SlotConfigInput.slotMinutes': { ...int(...SLOT_MINUTES_RANGE), ...notNull },
  'SlotConfigInput.maxCoversPerSlot': { ...int(...MAX_COVERS_RANGE), ...notNull },
  'SlotConfigInput.defaultMealMinutes': { ...int(...MEAL_MINUTES_RANGE), ...notNull },
  'SlotConfigInput.openingHours': { ...notNull },
  // An IANA zone name in any letter case (capacity canonicalizes `europe/rome` to `Europe/Rome`); whether the
  // runtime knows the zone is state a schema cannot list case-insensitively: a 400 the route's description states.
  'SlotConfigInput.timeZone': { type: 'string', pattern: TIME_ZONE_NAME, maxLength: 64, ...notNull },
  'OpeningDayInput.weekday': int(0, 6),
  'OpeningDayInput.intervals': { maxItems: MAX_INTERVALS_PER_DAY },
  'OpeningIntervalInput.open': { pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' },
  'OpeningIntervalInput.close': { pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$' },
  'SlotConfigInput.turnTimes': { maxItems: MAX_TURN_TIMES, ...notNull },
  'SlotConfigInput.reseat': notNull,
  'SlotConfigInput.reseatFreezeMinutes': { ...int(...RESEAT_FREEZE_MINUTES_RANGE), ...notNull },
  // null is a value here: shortened seatings off
  'SlotConfigInput.shortenedMinMinutes': int(...SHORTENED_MIN_MINUTES_RANGE),
  'TurnTimeInput.maxCovers': int(...TURN_TIME_MAX_COVERS_RANGE),
  'TurnTimeInput.minutes': int(TURN_TIME_MIN_MINUTES, TURN_TIME_MAX_MINUTES),
  'SlotConfigInput.promemoria': { maxItems: REMINDER_LIMITS.maxRules, ...notNull },
  'SlotConfigInput.reminders': { maxItems: REMINDER_LIMITS.maxRules, ...notNull },
  'ReminderRuleInput.orePrima': { ...int(REMINDER_LIMITS.hours.min, REMINDER_LIMITS.hours.max), ...notNull },
  'ReminderRuleInput.hoursBefore': {
    ...int(REMINDER_LIMITS.hours.min, REMINDER_LIMITS.hours.max),
    ...notNull,
  },
  'Disponibilita.$coperti': int(1, DISPONIBILITA_MAX_COVERS),
  'Disponibilita.$covers': int(1, DISPONIBILITA_MAX_COVERS),
  'Disponibilita.$ora': { pattern: CLOCK_PATTERN },
  'Disponibilita.$time': { pattern: CLOCK_PATTERN },
  'Disponibilita.$salaId': idText,
  'Disponibilita.$roomId': idText,
  'Disponibilita.$limite': int(...DISPONIBILITA_LIMIT_RANGE),
  'StoricoTavolo.$limite': int(1, HISTORY_LIMITS.max),
  'Report.$salaId': idText,
  'Disponibilita.$limit': int(...DISPONIBILITA_LIMIT_RANGE),
};

function prefixed(type: string, fields: Record<string, FieldConstraint>): Record<string, FieldConstraint> {
  return Object.fromEntries(Object.entries(fields).map(([name, c]) => [`${type}.${name}`, c]));
}

/** One of two names (an Italian/English twin) is required. */
const eitherOf = (english: string, italian: string) => ({
  anyOf: [{ required: [english] }, { required: [italian] }],
});

/** A table's centre: a null x or y comes with a null other (not placed). */
const unplacedTogether = [
  {
    if: { properties: { x: { type: 'null' } }, required: ['x'] },
    then: { properties: { y: { type: 'null' } } },
  },
  {
    if: { properties: { y: { type: 'null' } }, required: ['y'] },
    then: { properties: { x: { type: 'null' } } },
  },
];

/** A field sent with a value (not absent, not null). */
const given = (name: string) => ({ required: [name], properties: { [name]: { not: { type: 'null' } } } });
const autoAssignOn = { required: ['autoAssign'], properties: { autoAssign: { const: true } } };
const notAutoAssign = { not: { const: true } };
/**
 * At most one of tableIds, combinationId and autoAssign: true decides a party's tables; the refusal names the
 * later one (combinationId after tableIds, autoAssign after either), as the service does.
 */
const atMostOnePlacement = {
  allOf: [
    {
      if: given('tableIds'),
      then: { properties: { combinationId: { type: 'null' }, autoAssign: notAutoAssign } },
    },
    { if: given('combinationId'), then: { properties: { autoAssign: notAutoAssign } } },
  ],
};
/** A booking from an option (opzioneId, or its alias holdId). */
const fromOption = { anyOf: [given('opzioneId'), given('holdId')] };
/** It takes the option's tables, window and party: no placement, no duration, an active state. */
const optionBooking = {
  allOf: [
    eitherOf('customerName', 'cliente'),
    {
      properties: {
        tableIds: { type: 'null' },
        combinationId: { type: 'null' },
        autoAssign: notAutoAssign,
        durationMinutes: { type: 'null' },
        state: { enum: [...ACTIVE_BOOKING_STATES, null] },
      },
    },
  ],
};

/**
 * Rules over several fields of a body: keyed by its input type (every route that takes it, wherever it is
 * nested: json-schema.ts applies them to each input object), or
 * `Operation.$variable` for one operation's body only (a create's required fields, when a change takes the same
 * type). Required twins, x with y, the seating placement's exclusive fields.
 */
export const OBJECT_CONSTRAINTS: Readonly<Record<string, FieldConstraint>> = {
  // A rule needs its type, amount and currency (in either language); a tier its hours and percent.
  RegolaGaranziaInput: {
    allOf: [
      eitherOf('type', 'tipo'),
      eitherOf('amountPerCover', 'importoPerCoperto'),
      eitherOf('currency', 'valuta'),
    ],
  },
  PenaleGaranziaInput: { allOf: [eitherOf('minHours', 'oreAlmeno'), eitherOf('percent', 'percentuale')] },
  // A reminder rule's hours, under one of its names.
  ReminderRuleInput: eitherOf('hoursBefore', 'orePrima'),
  TavoloInput: {
    allOf: [
      eitherOf('name', 'nome'),
      eitherOf('seats', 'capacita'),
      // A new table's centre is x and y together.
      { dependentRequired: { x: ['y'], y: ['x'] } },
      ...unplacedTogether,
    ],
  },
  // A change may move x or y alone (the other is the table's own).
  TavoloPatch: { allOf: unplacedTogether },
  PrenotazioneInput: {
    if: fromOption,
    then: optionBooking,
    else: {
      allOf: [
        eitherOf('covers', 'numeroPersone'),
        eitherOf('bookingDate', 'dataOra'),
        eitherOf('customerName', 'cliente'),
        atMostOnePlacement,
        // Auto-assignment claims tables: only for a booking that holds them.
        { if: autoAssignOn, then: { properties: { state: { enum: [...ACTIVE_BOOKING_STATES, null] } } } },
      ],
    },
  },
  PrenotazionePatch: atMostOnePlacement,
  // An option holds tables: exactly one of the three.
  OpzioneInput: {
    allOf: [
      eitherOf('covers', 'numeroPersone'),
      eitherOf('bookingDate', 'dataOra'),
      atMostOnePlacement,
      { anyOf: [given('tableIds'), given('combinationId'), autoAssignOn] },
    ],
  },
  'CreateCombinazione.$input': {
    allOf: [eitherOf('name', 'nome'), eitherOf('maxCovers', 'capacitaMax'), { required: ['tableIds'] }],
  },
  VoceAttesaInput: { allOf: [eitherOf('customerName', 'cliente'), eitherOf('covers', 'numeroPersone')] },
  // canali reads `name` when it is a string, else `nome`; the one it reads must not be blank.
  CanaleInput: {
    if: { required: ['name'], properties: { name: { type: 'string' } } },
    then: { properties: { name: { pattern: NOT_BLANK_PATTERN } } },
    else: { required: ['nome'], properties: { nome: { type: 'string', pattern: NOT_BLANK_PATTERN } } },
  },
  SiediAttesaInput: { if: given('tableIds'), then: { properties: { combinationId: { type: 'null' } } } },
};
