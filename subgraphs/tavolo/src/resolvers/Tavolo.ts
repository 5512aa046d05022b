import type { TavoloContext } from '../context.js';
import { geometryOf } from '../geometry.js';
import type { TavoloRecord } from '../tavolo-record.js';

export const Tavolo = {
  __resolveReference: (reference: { id: string }, context: TavoloContext) =>
    context.tavoloById.load(reference.id),
  name: (t: TavoloRecord) => t.nome,
  seats: (t: TavoloRecord) => t.capacita,
  status: (t: TavoloRecord) => t.stato,
  roomId: (t: TavoloRecord) => t.salaId,
  sala: (t: TavoloRecord) => (t.salaId ? { __typename: 'Sala', id: t.salaId } : null),
  x: (t: TavoloRecord) => geometryOf(t).x,
  y: (t: TavoloRecord) => geometryOf(t).y,
  width: (t: TavoloRecord) => geometryOf(t).width,
  height: (t: TavoloRecord) => geometryOf(t).height,
  shape: (t: TavoloRecord) => geometryOf(t).shape,
  rotation: (t: TavoloRecord) => geometryOf(t).rotation,
  lock: (t: TavoloRecord) => (t.lock ? { tableId: t.id, ...t.lock } : null),
};
