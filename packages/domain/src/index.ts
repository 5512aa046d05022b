export * from './local-time.js';
export * from './input-checks.js';
export * from './prefer-english.js';
export * from './meal-duration.js';
export * from './seating.js';
export * from './date-scalars.js';
export * from './reminders.js';
export * from './email-address.js';
