import { buildSchema, type GraphQLInputObjectType } from 'graphql';

/**
 * prenotazione's `PrenotazioneInput` (and its `BookingState` enum), as published in its schema.graphql: the
 * shape every batch item must have. The batch checks each item against it before sending it, so that a type
 * error is that item's VALIDATION_FAILED naming the field. test/prenotazione-input.test.ts fails when this
 * copy and prenotazione's schema drift apart.
 */
export const PRENOTAZIONE_INPUT_SDL = /* GraphQL */ `
  enum BookingState {
    pending
    confermata
    caparra_pagata
    completata
    annullata
    no_show
  }

  input PrenotazioneInput {
    covers: Int
    numeroPersone: Int
    bookingDate: String
    dataOra: String
    customerName: String
    cliente: String
    customerPhone: String
    tableIds: [ID!]
    notes: String
    state: BookingState
    durationMinutes: Int
    externalId: String
  }
`;

const schema = buildSchema(`${PRENOTAZIONE_INPUT_SDL} type Query { unused: Boolean }`);

export const prenotazioneInputType = schema.getType('PrenotazioneInput') as GraphQLInputObjectType;

/** The field names an item may carry; anything else in an item is ignored (as the REST facade does). */
export const PRENOTAZIONE_INPUT_FIELDS: readonly string[] = Object.keys(prenotazioneInputType.getFields());
