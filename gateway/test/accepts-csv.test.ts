// Which Accept header asks a route with a CSV form for CSV (register-routes.ts).
import { describe, expect, it } from 'vitest';
import { acceptsCsv } from '../src/rest/register-routes.js';

describe('acceptsCsv', () => {
  it('is CSV only when text/csv comes before any JSON type', () => {
    expect(acceptsCsv(undefined)).toBe(false);
    expect(acceptsCsv('*/*')).toBe(false);
    expect(acceptsCsv('application/json')).toBe(false);
    expect(acceptsCsv('text/csv')).toBe(true);
    expect(acceptsCsv('Text/CSV; charset=utf-8')).toBe(true);
    expect(acceptsCsv('text/csv, application/json;q=0.5')).toBe(true);
    expect(acceptsCsv('application/json, text/csv')).toBe(false);
    expect(acceptsCsv('application/problem+json, text/csv')).toBe(false);
  });
});
