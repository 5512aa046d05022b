import type { TavoloContext } from '../context.js';

/** Rooms belong to the sala subgraph; tavolo adds their tables. */
export const Sala = {
  __resolveReference: (reference: { id: string }) => reference,
  tavoli: (sala: { id: string }, _: unknown, context: TavoloContext) => context.tavoliBySala.load(sala.id),
};
