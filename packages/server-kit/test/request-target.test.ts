import { describe, expect, it } from 'vitest';
import { requestTarget } from '../src/request-target.js';

describe('requestTarget', () => {
  it('reads the path and query of an origin-form target', () => {
    const url = requestTarget('/api/tavoli?posizione=sala%201&x=%F2');
    expect(url?.pathname).toBe('/api/tavoli');
    expect(url?.searchParams.get('posizione')).toBe('sala 1');
    expect(requestTarget(undefined)?.pathname).toBe('/');
  });

  it('keeps a backslash or odd bytes after the first slash in the path', () => {
    expect(requestTarget('/\\evil/graphql')?.pathname).not.toBe('/graphql');
    expect(requestTarget('/%F2%B0%86%9A/graphql')?.pathname).toBe('/%F2%B0%86%9A/graphql');
  });

  it('gives null, never a throw, for a target that is not a path (new URL(target, base) threw on the first)', () => {
    const hostLike = '//%F2%B0%86%9A%F2%98%A4%8B/graphql';
    expect(() => new URL(hostLike, 'http://gateway')).toThrow(TypeError);
    expect(requestTarget(hostLike)).toBeNull();
    expect(requestTarget('//example.com/graphql')).toBeNull();
    expect(requestTarget('http://example.com/graphql')).toBeNull();
    expect(requestTarget('*')).toBeNull();
  });
});
