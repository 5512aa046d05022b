import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildASTSchema, isEnumType, isInputObjectType, parse, type GraphQLNamedType } from 'graphql';
import { PRENOTAZIONE_INPUT_SDL } from '../src/generated/prenotazione-input.js';

/** prenotazione's published schema, types only (federation directives need not resolve to compare shapes). */
const published = buildASTSchema(
  parse(readFileSync(new URL('../../prenotazione/schema.graphql', import.meta.url), 'utf8')),
  { assumeValid: true, assumeValidSDL: true },
);
const copy = buildASTSchema(parse(PRENOTAZIONE_INPUT_SDL), { assumeValid: true });

/** A type's shape: `field: Type` for input objects, value names for enums. */
function shape(type: GraphQLNamedType | undefined | null): string[] {
  if (isInputObjectType(type))
    return Object.values(type.getFields()).map((f) => `${f.name}: ${String(f.type)}`);
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  return [];
}

describe("bookings' generated copy of prenotazione's input type", () => {
  it.each(['PrenotazioneInput', 'BookingState'])(
    'has the shape of %s in prenotazione/schema.graphql',
    (name) => {
      expect(shape(published.getType(name)).length).toBeGreaterThan(0);
      expect(shape(copy.getType(name))).toEqual(shape(published.getType(name)));
    },
  );
});
