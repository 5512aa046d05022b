import { describe, expect, it } from 'vitest';
import {
  BOOKING_STATES,
  CODICE_ALPHABET,
  generateCodice,
  transition,
} from '../src/bookings/prenotazione-record.js';

describe('booking state transitions', () => {
  const allowed = new Set([
    'pending>confermata',
    'pending>caparra_pagata',
    'pending>annullata',
    'confermata>caparra_pagata',
    'confermata>completata',
    'confermata>annullata',
    'confermata>no_show',
    'caparra_pagata>completata',
    'caparra_pagata>annullata',
    'caparra_pagata>no_show',
  ]);
  for (const from of BOOKING_STATES) {
    for (const to of BOOKING_STATES) {
      const expected = from === to ? 'same' : allowed.has(`${from}>${to}`) ? 'allowed' : 'refused';
      it(`${from} → ${to} is ${expected}`, () => expect(transition(from, to)).toBe(expected));
    }
  }
});

describe('codice', () => {
  it('is 6 characters of the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const codice = generateCodice();
      expect(codice).toHaveLength(6);
      expect([...codice].every((c) => CODICE_ALPHABET.includes(c))).toBe(true);
    }
    expect(CODICE_ALPHABET).not.toMatch(/[01OIL]/);
  });
});
