export * from './servers.js';
export * from './server-urls.js';
export * from './stripe-mock-url.js';
export * from './tokens.js';
export * from './deferred.js';
export * from './mailpit.js';
export * from './virtual-clock.js';
export { watchStripeMock, type StripeMockWatch, type StripeRequest } from './stripe-mock-watch.js';
