import type { CanaleCreatoResolvers, CanaleResolvers } from '../generated/resolvers-types.js';

/** The English aliases. */
export const Canale: CanaleResolvers = {
  name: (canale) => canale.nome,
  origins: (canale) => canale.origini,
};

export const CanaleCreato: CanaleCreatoResolvers = {
  name: (canale) => canale.nome,
  origins: (canale) => canale.origini,
  key: (canale) => canale.chiave,
};
