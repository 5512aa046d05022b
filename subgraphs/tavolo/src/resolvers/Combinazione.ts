import type { CombinazioneResolvers } from '../generated/resolvers-types.js';
import type { TavoloRecord } from '../tables/tavolo-record.js';

export const Combinazione: CombinazioneResolvers = {
  __resolveReference: (reference, context) => context.combinazioneById.load(reference.id),
  name: (c) => c.nome,
  roomId: (c) => c.salaId,
  minCovers: (c) => c.capacitaMin,
  maxCovers: (c) => c.capacitaMax,
  /** The member tables that still exist, in the order of tableIds (one batched store query). */
  tavoli: async (c, _, context) => {
    const loaded = await context.tavoloById.loadMany(c.tableIds);
    const failed = loaded.find((t) => t instanceof Error);
    if (failed) throw failed;
    return loaded.filter((t): t is TavoloRecord => t !== null);
  },
};
