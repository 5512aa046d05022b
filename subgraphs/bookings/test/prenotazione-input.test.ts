import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildASTSchema, parse, printType, type DocumentNode } from 'graphql';
import { PRENOTAZIONE_INPUT_SDL } from '../src/prenotazione-input.js';

/** The types of prenotazione's published schema (federation directives dropped: only the shapes matter). */
function publishedTypes(): DocumentNode {
  const sdl = readFileSync(new URL('../../prenotazione/schema.graphql', import.meta.url), 'utf8');
  const document = parse(sdl);
  return {
    ...document,
    definitions: document.definitions.filter(
      (d) =>
        (d.kind === 'InputObjectTypeDefinition' && d.name.value === 'PrenotazioneInput') ||
        (d.kind === 'EnumTypeDefinition' && d.name.value === 'BookingState'),
    ),
  };
}

describe("the copy of prenotazione's input type", () => {
  it.each(['PrenotazioneInput', 'BookingState'])('matches %s in prenotazione/schema.graphql', (name) => {
    const published = buildASTSchema(publishedTypes(), { assumeValid: true });
    const copy = buildASTSchema(parse(PRENOTAZIONE_INPUT_SDL), { assumeValid: true });
    const strip = (text: string) => text.replace(/"""[\s\S]*?"""|"[^"\n]*"/g, '').replace(/\s+/g, ' ');
    expect(strip(printType(copy.getType(name)!))).toBe(strip(printType(published.getType(name)!)));
  });
});
