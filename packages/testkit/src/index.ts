export * from './servers.js';
export * from './server-urls.js';
