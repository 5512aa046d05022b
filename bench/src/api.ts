/** A small JSON client over the REST facade, for seeding and probes (not for load: that is autocannon's). */
export interface Api {
  readonly baseUrl: string;
  readonly token: string;
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(message);
  }
}

export function createApi(baseUrl: string, token: string): Api {
  return {
    baseUrl,
    token,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (!response.ok) {
        throw new ApiError(
          `${method} ${path} → ${response.status}: ${text.slice(0, 300)}`,
          response.status,
          text,
        );
      }
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
  };
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** POSTs a GraphQL operation; fails on HTTP errors and on GraphQL errors. */
export async function graphql<T>(url: string, token: string, query: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} → ${response.status}: ${text.slice(0, 300)}`);
  const result = JSON.parse(text) as { data?: T; errors?: unknown[] };
  if (result.errors?.length) throw new Error(`POST ${url}: ${JSON.stringify(result.errors).slice(0, 300)}`);
  return result.data as T;
}
