import type { CoppiaOspitiResolvers } from '../generated/resolvers-types.js';

export const CoppiaOspiti: CoppiaOspitiResolvers = {
  fields: (pair) => pair.campi,
};
