export * from './limits.js';
export * from './limit-error.js';
export * from './token-limit.js';
export * from './shape-rules.js';
export * from './operation-cost.js';
export * from './check-operation.js';
export * from './apollo-plugin.js';
export * from './measure-operation.js';
