/** Closed-loop HTTP load with autocannon; latencies recorded per response (autocannon's histogram is in whole ms). */
import { loadAutocannon, type AutocannonRequest } from './deps.js';
import type { HttpJob, LoadResult, RequestSpec } from './load-types.js';
import { mean, percentile, sortedCopy } from './stats.js';

const TEMPLATE = /\{\{(\w+)\}\}/g;

function filler(spec: RequestSpec) {
  return (text: string, n: number) =>
    text.replace(TEMPLATE, (_, name: string) => {
      if (name === 'n') return String(n);
      const options = spec.choices?.[name];
      if (!options || options.length === 0) throw new Error(`no choices for {{${name}}}`);
      return options[n % options.length]!;
    });
}

const templated = (spec: RequestSpec) =>
  [spec.path, spec.body ?? '', ...Object.values(spec.headers ?? {})].some((text) => /\{\{\w+\}\}/.test(text));

export async function runHttp(job: HttpJob): Promise<LoadResult> {
  const autocannon = await loadAutocannon();
  let counter = 0;
  const requests: AutocannonRequest[] = job.requests.map((spec) => {
    const base: AutocannonRequest = {
      method: spec.method,
      path: spec.path,
      headers: {
        ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...spec.headers,
      },
      ...(spec.body === undefined ? {} : { body: spec.body }),
    };
    if (!templated(spec)) return base;
    const fill = filler(spec);
    return {
      ...base,
      setupRequest: (req) => {
        const n = counter++;
        return {
          ...req,
          path: fill(spec.path, n),
          headers: Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k, fill(v, n)])),
          ...(spec.body === undefined ? {} : { body: fill(spec.body, n) }),
        };
      },
    };
  });

  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const instance = autocannon({
    url: typeof job.baseUrl === 'string' ? job.baseUrl : [...job.baseUrl],
    connections: job.connections,
    ...(job.overallRate === undefined ? {} : { overallRate: job.overallRate }),
    duration: job.seconds,
    maxOverallRequests: job.maxRequests,
    timeout: 10,
    requests,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status >= 200 && status < 300) latencies.push(responseTime);
    else failures[status] = (failures[status] ?? 0) + 1;
  });
  const guard = setTimeout(() => instance.stop(), (job.seconds + 20) * 1000);
  const result = await instance;
  clearTimeout(guard);
  const sorted = sortedCopy(latencies);
  return {
    rps: latencies.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: mean(latencies),
    ok: latencies.length,
    failures,
    errors: result.errors,
    seconds: result.duration,
  };
}
