import type { TavoloContext } from '../context.js';
import type { AvailabilityInput } from '../availability-service.js';
import type { TavoliQuery } from '../tavolo-store.js';

export const Query = {
  tavoli: (_: unknown, args: { filter?: TavoliQuery | null }, context: TavoloContext) =>
    context.tavoli.list(args.filter ?? {}),
  tavolo: (_: unknown, args: { id: string }, context: TavoloContext) => context.tavoli.get(args.id),
  verificaDisponibilita: async (_: unknown, args: { input: AvailabilityInput }, context: TavoloContext) => {
    const { tables, totalCapacity } = await context.availability.check(args.input);
    return {
      tavoliDisponibili: tables,
      availableTables: tables,
      capacitaTotale: totalCapacity,
      totalCapacity,
    };
  },
};
