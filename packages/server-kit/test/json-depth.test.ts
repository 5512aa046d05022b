import { describe, expect, it } from 'vitest';
import { isJsonContentType, jsonDepthExceeds, MAX_JSON_DEPTH } from '../src/json-depth.js';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('jsonDepthExceeds', () => {
  it('counts nesting of objects and arrays, not brackets inside strings (escaped quotes included)', () => {
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(`{"a":{"b":[1]}}`, 2)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(500)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds(String.raw`{"a":"\"[[[["}`, 2)).toBe(false);
  });
});

describe('isJsonContentType', () => {
  it('accepts application/json and application/*+json in UTF-8, nothing else', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/graphql-response+json')).toBe(true);
    expect(isJsonContentType('application/json; charset=latin1')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
