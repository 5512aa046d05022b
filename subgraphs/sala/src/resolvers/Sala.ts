import type { SalaContext } from '../context.js';
import { salaName, type SalaRecord } from '../sala-record.js';

export const Sala = {
  __resolveReference: (reference: { id: string }, context: SalaContext) =>
    context.salaById.load(reference.id),
  name: (sala: SalaRecord) => salaName(sala),
};
