import type { SalaContext } from '../context.js';
import type { SalaInput, SalaPatch } from '../sala-service.js';

export const Mutation = {
  createSala: (_: unknown, args: { input: SalaInput }, context: SalaContext) =>
    context.sale.create(args.input),
  updateSala: (_: unknown, args: { id: string; input: SalaPatch }, context: SalaContext) =>
    context.sale.update(args.id, args.input),
  deleteSala: (_: unknown, args: { id: string }, context: SalaContext) => context.sale.delete(args.id),
};
