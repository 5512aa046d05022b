import { ACTIVE_BOOKING_STATES } from '@coperto/domain';
import { NOT_BLANK_PATTERN, type FieldConstraint } from './input-constraints.js';

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
