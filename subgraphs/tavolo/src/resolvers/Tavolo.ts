import type { TavoloContext } from '../context.js';
import type { TavoloRecord } from '../tavolo-record.js';

export const Tavolo = {
  __resolveReference: (reference: { id: string }, context: TavoloContext) =>
    context.tavoloById.load(reference.id),
  name: (t: TavoloRecord) => t.nome,
  seats: (t: TavoloRecord) => t.capacita,
  status: (t: TavoloRecord) => t.stato,
  roomId: (t: TavoloRecord) => t.salaId,
  sala: (t: TavoloRecord) => (t.salaId ? { __typename: 'Sala', id: t.salaId } : null),
  lock: (t: TavoloRecord) => (t.lock ? { tableId: t.id, ...t.lock } : null),
};
