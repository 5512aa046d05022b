import type { TavoloResolvers } from '../generated/resolvers-types.js';
import { geometryOf } from '../tables/geometry.js';

export const Tavolo: TavoloResolvers = {
  __resolveReference: (reference, context) => context.tavoloById.load(reference.id),
  name: (t) => t.nome,
  seats: (t) => t.capacita,
  status: (t) => t.stato,
  roomId: (t) => t.salaId,
  sala: (t) => (t.salaId ? { __typename: 'Sala', id: t.salaId } : null),
  x: (t) => geometryOf(t).x,
  y: (t) => geometryOf(t).y,
  width: (t) => geometryOf(t).width,
  height: (t) => geometryOf(t).height,
  shape: (t) => geometryOf(t).shape,
  rotation: (t) => geometryOf(t).rotation,
  lock: (t) => (t.lock ? { tableId: t.id, ...t.lock } : null),
};
