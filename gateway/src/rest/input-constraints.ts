import {
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

/** One constraint under both names of an Italian/English twin (a body may carry either). */
const twins = (first: string, second: string, constraint: FieldConstraint) => ({
  [first]: constraint,
  [second]: constraint,
});

const SALA = {
  codice: text(50, { required: true }),
  descrizione: text(500),
  width: positive,
  height: positive,
};
const TAVOLO = {
  ...twins('nome', 'name', { ...text(100, { required: true }), ...notNull }),
  ...twins('capacita', 'seats', { ...int(1, 1000), ...notNull }),
  posizione: text(100),
  x: { minimum: 0 },
  y: { minimum: 0 },
  width: { exclusiveMinimum: 0, maximum: MAX_TABLE_SIDE },
  height: { exclusiveMinimum: 0, maximum: MAX_TABLE_SIDE },
  rotation: int(0, 359),
};
const PRENOTAZIONE = {
  ...twins('covers', 'numeroPersone', { ...int(1, 1000), ...notNull }),
  ...twins('bookingDate', 'dataOra', notNull),
  ...twins('customerName', 'cliente', { ...text(200, { required: true }), ...notNull }),
  customerPhone: text(50),
  customerEmail: email,
  ...twins('lingua', 'language', notNull),
  notes: text(2000),
  durationMinutes: int(1, MAX_DURATION_MINUTES),
  tableIds: tableIdList(0, MAX_TABLES_PER_BOOKING),
  combinationId: idText,
};
const OPZIONE = {
  ...twins('covers', 'numeroPersone', covers),
  ...twins('bookingDate', 'dataOra', notNull),
  tableIds: tableIdList(1, MAX_TABLES_PER_BOOKING),
  combinationId: idText,
  ttl: int(...OPTION_TTL_RANGE),
  durationMinutes: int(1, MAX_DURATION_MINUTES),
};
const COMBINAZIONE = {
  ...twins('nome', 'name', { ...text(100, { required: true }), ...notNull }),
  tableIds: { ...tableIdList(COMBINAZIONE_TABLES.min, COMBINAZIONE_TABLES.max), ...notNull },
  ...twins('capacitaMin', 'minCovers', {
    ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max),
    ...notNull,
  }),
  ...twins('capacitaMax', 'maxCovers', {
    ...int(COMBINAZIONE_COVERS.min, COMBINAZIONE_COVERS.max),
    ...notNull,
  }),
  attivo: notNull,
};
/** A waitlist party: a booking's limits (seating it creates one). */
const VOCE_ATTESA = {
  ...twins('customerName', 'cliente', { ...text(200, { required: true }), ...notNull }),
  ...twins('covers', 'numeroPersone', covers),
  customerPhone: text(50),
  notes: text(2000),
};
/** A guest's profile (the ospiti service's own checks). */
const labels = {
  maxItems: GUEST_LIMITS.labelsMaxItems,
  items: { minLength: 1, maxLength: GUEST_LIMITS.labelMaxLength, pattern: NOT_BLANK_PATTERN },
};
const OSPITE = {
  ...twins('nome', 'name', text(GUEST_LIMITS.nameMaxLength, { required: true })),
  ...twins('telefono', 'phone', text(50)),
  email,
  ...twins('lingua', 'language', { pattern: LANGUAGE_PATTERN }),
  // A list, never null (`[]` clears it); consent true or false.
  ...twins('tag', 'tags', { ...labels, ...notNull }),
  ...twins('allergie', 'allergies', { ...labels, ...notNull }),
  ...twins('note', 'notes', text(GUEST_LIMITS.notesMaxLength)),
  ...twins('consensoMarketing', 'marketingConsent', notNull),
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
  ...twins('eventi', 'events', { ...eventTypes, ...notNull }),
  ...twins('attivo', 'active', notNull),
};

const CANALE = {
  ...twins('nome', 'name', text(CANALE_LIMITS.nomeMaxLength)),
  ...twins('origini', 'origins', {
    maxItems: CANALE_LIMITS.maxOrigins,
    items: { maxLength: CANALE_LIMITS.originMaxLength },
  }),
};

const percent = { ...int(0, 100), ...notNull };
const REGOLA_GARANZIA = {
  ...twins('tipo', 'type', notNull),
  ...twins('minCoperti', 'minCovers', { ...int(1, POLICY_LIMITS.maxCovers), ...notNull }),
  ...twins('giorni', 'weekdays', { maxItems: 7, items: int(1, 7), ...notNull }),
  ...twins('dalle', 'from', { pattern: CLOCK_PATTERN, ...notNull }),
  ...twins('alle', 'to', { pattern: `${CLOCK_PATTERN}|^24:00$`, ...notNull }),
  ...twins('importoPerCoperto', 'amountPerCover', { ...int(1, POLICY_LIMITS.maxAmountPerCover), ...notNull }),
  ...twins('valuta', 'currency', { pattern: CURRENCY_PATTERN, ...notNull }),
};
const PENALE_GARANZIA = {
  ...twins('oreAlmeno', 'minHours', { ...int(0, POLICY_LIMITS.maxHours), ...notNull }),
  ...twins('percentuale', 'percent', percent),
};
const POLITICA_GARANZIE = {
  ...twins('regole', 'rules', { maxItems: POLICY_LIMITS.rules }),
  ...twins('penali', 'penalties', { maxItems: POLICY_LIMITS.penalties }),
  ...twins('scadenzaMinuti', 'dueMinutes', int(...DUE_MINUTES_RANGE)),
  ...twins('percentualeNoShow', 'noShowPercent', int(0, 100)),
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
  ...twins('SlotConfigInput.promemoria', 'SlotConfigInput.reminders', {
    maxItems: REMINDER_LIMITS.maxRules,
    ...notNull,
  }),
  ...twins('ReminderRuleInput.orePrima', 'ReminderRuleInput.hoursBefore', {
    ...int(REMINDER_LIMITS.hours.min, REMINDER_LIMITS.hours.max),
    ...notNull,
  }),
  ...twins('Disponibilita.$coperti', 'Disponibilita.$covers', int(1, DISPONIBILITA_MAX_COVERS)),
  ...twins('Disponibilita.$ora', 'Disponibilita.$time', { pattern: CLOCK_PATTERN }),
  ...twins('Disponibilita.$salaId', 'Disponibilita.$roomId', idText),
  ...twins('Disponibilita.$limite', 'Disponibilita.$limit', int(...DISPONIBILITA_LIMIT_RANGE)),
  'StoricoTavolo.$limite': int(1, HISTORY_LIMITS.max),
  'Report.$salaId': idText,
};

function prefixed(type: string, fields: Record<string, FieldConstraint>): Record<string, FieldConstraint> {
  return Object.fromEntries(Object.entries(fields).map(([name, c]) => [`${type}.${name}`, c]));
}
