import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  report: (_, args, context) => context.reports.report(args),
  reportCsv: (_, args, context) => context.reports.csv(args),
  turniSuggeriti: (_, args, context) => context.reports.suggestions(args),
};
