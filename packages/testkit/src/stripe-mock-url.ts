import { inject } from 'vitest';

/** The URL of the stripe-mock the vitest global setup started (or STRIPE_MOCK_URL): garanzie's STRIPE_API_BASE. */
export function stripeMockUrl(): string {
  return inject('stripeMockUrl');
}

declare module 'vitest' {
  export interface ProvidedContext {
    stripeMockUrl: string;
  }
}
