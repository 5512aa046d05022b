import type { HttpMethod, RestRoute } from './route.js';

export type RouteMatch =
  | { kind: 'found'; route: RestRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: HttpMethod[] }
  | { kind: 'not-found' };

interface CompiledRoute {
  route: RestRoute;
  segments: string[];
  /** Static segments count: more static segments win (`/tavoli/verifica-disponibilita` over `/tavoli/:id`). */
  specificity: number;
}

/** Compiles the route table once; `match` is a pure lookup by method and path. */
export function createRouteMatcher(routes: readonly RestRoute[]) {
  const compiled: CompiledRoute[] = routes
    .map((route) => {
      const segments = split(route.path);
      return { route, segments, specificity: segments.filter((s) => !s.startsWith(':')).length };
    })
    .sort((a, b) => b.specificity - a.specificity);

  return function match(method: string, pathname: string): RouteMatch {
    const parts = split(pathname);
    const allow = new Set<HttpMethod>();
    let bestForPath: number | undefined;
    for (const candidate of compiled) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      bestForPath ??= candidate.specificity;
      if (candidate.specificity !== bestForPath) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      allow.add(candidate.route.method);
    }
    return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow] } : { kind: 'not-found' };
  };
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return null;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}
