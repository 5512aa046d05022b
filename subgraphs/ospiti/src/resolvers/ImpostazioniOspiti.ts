import type { ImpostazioniOspitiResolvers } from '../generated/resolvers-types.js';

export const ImpostazioniOspiti: ImpostazioniOspitiResolvers = {
  country: (settings) => settings.paese,
};
