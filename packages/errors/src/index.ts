export * from './codes.js';
export * from './app-error.js';
export * from './graphql.js';
export * from './rest.js';
