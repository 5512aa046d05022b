// The deployable stack (Dockerfile, .dockerignore, docker-compose.yml, deploy/*.yaml) checked against the code:
// variable names and values through the processes' own config readers, ports, probes (docs/deployment.md),
// supergraph.yaml routing URLs, and no committed secrets. No Docker, no network: the files are only parsed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readGatewayConfig, SUBGRAPH_NAMES } from '@coperto/gateway';
import {
  ALL_SUBGRAPHS,
  authOptionsFromConfig,
  readSubgraphConfig,
  SECRET_VARIABLES,
  serviceConfigSchema,
  SHUTDOWN_STEPS_MARGIN_MS,
} from '@coperto/server-kit';
import { mailSettingsShape } from '@coperto/subgraph-promemoria';
import { TEST_JWT_SECRET } from '@coperto/testkit';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const repoRoot = resolve(import.meta.dirname, '..');
const readText = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

// ---------------------------------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------------------------------

const SUBGRAPHS = [
  'tavolo',
  'sala',
  'prenotazione',
  'bookings',
  'capacity',
  'canali',
  'ospiti',
  'promemoria',
  'garanzie',
  'webhooks',
  'rapporti',
] as const;
const PROCESSES = ['gateway', ...SUBGRAPHS] as const;
type ProcessName = (typeof PROCESSES)[number];

/** Application port of each process: 3000 for the gateway, supergraph.yaml's routing port for a subgraph. */
const APP_PORTS: Record<ProcessName, number> = {
  gateway: 3000,
  tavolo: 4001,
  sala: 4002,
  prenotazione: 4003,
  bookings: 4004,
  capacity: 4005,
  canali: 4006,
  ospiti: 4007,
  promemoria: 4009,
  garanzie: 4008,
  webhooks: 4010,
  rapporti: 4011,
};
const ENTRIES: Record<ProcessName, string> = {
  gateway: 'gateway/src/index.ts',
  tavolo: 'subgraphs/tavolo/src/index.ts',
  sala: 'subgraphs/sala/src/index.ts',
  prenotazione: 'subgraphs/prenotazione/src/index.ts',
  bookings: 'subgraphs/bookings/src/index.ts',
  capacity: 'subgraphs/capacity/src/index.ts',
  canali: 'subgraphs/canali/src/index.ts',
  ospiti: 'subgraphs/ospiti/src/index.ts',
  promemoria: 'subgraphs/promemoria/src/index.ts',
  garanzie: 'subgraphs/garanzie/src/index.ts',
  webhooks: 'subgraphs/webhooks/src/index.ts',
  rapporti: 'subgraphs/rapporti/src/index.ts',
};
/** The compiled entry the images run (`pnpm build`: src/x.ts → dist/x.js). */
const compiledEntry = (entry: string) => entry.replace('/src/', '/dist/').replace(/\.ts$/, '.js');
const HEALTH_PORT = 3001;
const METRICS_PORT = 3030;
const INFRA = ['mongo', 'nats', 'redis'] as const;

/** The health probe constants every process and manifest share (ports resolved to numbers). */
const EXPECTED_PROBES = {
  startupProbe: {
    httpGet: { path: '/public/health/live', port: HEALTH_PORT },
    initialDelaySeconds: 5,
    periodSeconds: 5,
    failureThreshold: 30,
    timeoutSeconds: 3,
  },
  livenessProbe: {
    httpGet: { path: '/public/health/live', port: HEALTH_PORT },
    periodSeconds: 15,
    failureThreshold: 3,
    timeoutSeconds: 5,
  },
  readinessProbe: {
    httpGet: { path: '/public/health/ready', port: HEALTH_PORT },
    periodSeconds: 10,
    failureThreshold: 3,
    successThreshold: 1,
    timeoutSeconds: 5,
  },
} as const;

/** Read by Node or Apollo rather than by Coperto's config, and set on purpose. */
const RUNTIME_ENV = ['APOLLO_TELEMETRY_DISABLED', 'NODE_ENV', 'NODE_OPTIONS'];

/** Stands in for the JWT secret the operator provides (compose `.env`, Kubernetes Secret). */
const PLACEHOLDER_SECRET = 'placeholder-for-the-deploy-test-only-0123456789';
/** Stands in for the service-token key (it must differ from the JWT secret). */
const PLACEHOLDER_SERVICE_SECRET = 'placeholder-service-key-for-the-deploy-test-0123456789';
/** What the operator provides to compose (`.env`): the JWT secret, the service-token key, the NATS password. */
const OPERATOR_SECRETS = {
  JWT_SECRET: PLACEHOLDER_SECRET,
  SERVICE_TOKEN_SECRET: PLACEHOLDER_SERVICE_SECRET,
  NATS_PASSWORD: PLACEHOLDER_SECRET,
};
/** Variables that may only come from the operator: compose `${VAR:?...}` references, Kubernetes Secrets. */
const OPERATOR_SECRET_VARS = Object.keys(OPERATOR_SECRETS) as Array<keyof typeof OPERATOR_SECRETS>;

const subgraphUrlVar = (name: string) => `SUBGRAPH_${name.toUpperCase()}_URL`;
const SUBGRAPH_URL_VARS = ALL_SUBGRAPHS.map(subgraphUrlVar);

/** Variable names each kind of process reads (its config reader's keys, SUBGRAPH_<NAME>_URL, runtime ones). */
const gatewayKeys = Object.keys(readGatewayConfig({})).filter((key) => key !== 'subgraphUrls');
const KNOWN_ENV: Record<'gateway' | 'subgraph', ReadonlySet<string>> = {
  gateway: new Set([...gatewayKeys, ...SUBGRAPH_URL_VARS, ...RUNTIME_ENV]),
  subgraph: new Set([...Object.keys(serviceConfigSchema.shape), ...SUBGRAPH_URL_VARS, ...RUNTIME_ENV]),
};
const kindOf = (name: ProcessName) => (name === 'gateway' ? 'gateway' : 'subgraph');
/** Variables only one subgraph reads (its own config.ts; garanzie's are declared in the gateway's config too, for
 * embedded mode). */
const OWN_ENV: Partial<Record<ProcessName, readonly string[]>> = {
  promemoria: Object.keys(mailSettingsShape),
  garanzie: gatewayKeys.filter((key) => key.startsWith('STRIPE_') && key !== 'STRIPE_WEBHOOK_SECRET'),
};

const SECRET_VARS: readonly string[] = SECRET_VARIABLES;

// ---------------------------------------------------------------------------------------------------------------
// Shared checks (used for compose and Kubernetes alike)
// ---------------------------------------------------------------------------------------------------------------

type Env = Record<string, string>;

/** Parses a process's environment with the process's own reader and checks what distributed mode needs. */
function checkDistributedEnv(name: ProcessName, env: Env) {
  const unknown = Object.keys(env).filter(
    (key) => !KNOWN_ENV[kindOf(name)].has(key) && !(OWN_ENV[name] ?? []).includes(key),
  );
  expect(unknown, `${name}: variables no code reads`).toEqual([]);
  expect(env.APOLLO_TELEMETRY_DISABLED, `${name}: APOLLO_TELEMETRY_DISABLED`).toBe('1');

  if (name === 'gateway') {
    const config = readGatewayConfig(env);
    expect(config.COPERTO_MODE, 'gateway: COPERTO_MODE').toBe('distributed');
    expect(config.PORT).toBe(APP_PORTS.gateway);
    expect([config.HEALTH_PORT, config.METRICS_PORT]).toEqual([HEALTH_PORT, METRICS_PORT]);
    expect(config.NATS_URL, 'gateway: NATS_URL').toBeDefined();
    expect(config.REDIS_URL, 'gateway: REDIS_URL').toBeDefined();
    // No store in distributed mode: a MONGO_URL would only mislead.
    expect(config.MONGO_URL, 'gateway: MONGO_URL').toBeUndefined();
    expect(() => authOptionsFromConfig(config, 'distributed')).not.toThrow();
    // The gateway reads one per federated subgraph (SUBGRAPH_NAMES); the stack sets one for every subgraph.
    for (const subgraph of SUBGRAPH_NAMES) {
      expect(config.subgraphUrls[subgraph], `gateway reads ${subgraphUrlVar(subgraph)}`).toBeDefined();
    }
    for (const subgraph of ALL_SUBGRAPHS) {
      expect(env[subgraphUrlVar(subgraph)], `gateway: ${subgraphUrlVar(subgraph)}`).toBeTruthy();
    }
  } else {
    const { config, subgraphUrls } = readSubgraphConfig(env);
    expect(config.PORT).toBe(APP_PORTS[name]);
    expect([config.HEALTH_PORT, config.METRICS_PORT]).toEqual([HEALTH_PORT, METRICS_PORT]);
    for (const required of ['MONGO_URL', 'NATS_URL', 'REDIS_URL'] as const) {
      expect(config[required], `${name}: ${required}`).toBeDefined();
    }
    expect(() => authOptionsFromConfig(config, 'distributed')).not.toThrow();
    for (const sibling of ALL_SUBGRAPHS.filter((s) => s !== name)) {
      expect(subgraphUrls[sibling], `${name}: ${subgraphUrlVar(sibling)}`).toBeDefined();
    }
  }
  // Connection URLs are secret-marked in the code: committed ones carry no credentials.
  for (const variable of SECRET_VARS.filter((v) => v.endsWith('_URL'))) {
    const value = env[variable];
    if (value !== undefined && value !== '') {
      const { username, password } = new URL(value);
      expect(`${username}${password}`, `${name}: credentials in ${variable}`).toBe('');
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// supergraph.yaml
// ---------------------------------------------------------------------------------------------------------------

const supergraph = parse(readText('supergraph.yaml')) as {
  subgraphs: Record<string, { routing_url: string }>;
};
const routingUrls = Object.fromEntries(
  Object.entries(supergraph.subgraphs).map(([n, s]) => [n, s.routing_url]),
);

describe('the process list', () => {
  it('is the code’s list of subgraphs plus the gateway', () => {
    expect([...SUBGRAPHS]).toEqual([...ALL_SUBGRAPHS]);
    for (const name of SUBGRAPH_NAMES) expect(SUBGRAPHS).toContain(name);
    for (const name of Object.keys(routingUrls)) expect(SUBGRAPHS).toContain(name);
  });

  it.each(PROCESSES)('%s has its entry point in the repository', (name) => {
    expect(existsSync(join(repoRoot, ENTRIES[name]))).toBe(true);
  });

  it('supergraph.yaml routes every subgraph it lists to http://<name>:<port>/graphql', () => {
    for (const [name, url] of Object.entries(routingUrls)) {
      expect(url).toBe(`http://${name}:${APP_PORTS[name as ProcessName]}/graphql`);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Dockerfile and .dockerignore
// ---------------------------------------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string) {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, image = '', name = String(stages.length)] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      const resolved = image.replace(/\$\{(\w+)\}/g, (_, arg: string) => globalArgs[arg] ?? '');
      stages.push({ name, from: resolved, instructions: [] });
    } else if (stages.length === 0 && upper === 'ARG') {
      const [, arg = '', value = ''] = /^(\w+)(?:=(.*))?$/.exec(args) ?? [];
      globalArgs[arg] = value;
    } else {
      stages.at(-1)?.instructions.push({ keyword: upper, args });
    }
  }
  /** A stage's instructions with those of the stages it is built FROM, base first. */
  const chain = (name: string): Instruction[] => {
    const stage = stages.find((s) => s.name === name);
    if (!stage) return [];
    const parent = stages.find((s) => s.name === stage.from);
    return [...(parent ? chain(parent.name) : []), ...stage.instructions];
  };
  const baseImage = (name: string): string => {
    const stage = stages.find((s) => s.name === name);
    if (!stage) return '';
    return stages.some((s) => s.name === stage.from) ? baseImage(stage.from) : stage.from;
  };
  return { stages, chain, baseImage, globalArgs };
}

const dockerfileText = readText('Dockerfile');
const dockerfile = parseDockerfile(dockerfileText);
const lastOf = (instructions: Instruction[], keyword: string) =>
  instructions.filter((i) => i.keyword === keyword).at(-1)?.args;

describe('Dockerfile', () => {
  it('installs the pnpm of package.json "packageManager" and the frozen lockfile', () => {
    const packageManager = (JSON.parse(readText('package.json')) as { packageManager: string })
      .packageManager;
    const version = /^pnpm@(\d+\.\d+\.\d+)/.exec(packageManager)?.[1];
    expect(version).toBeDefined();
    const all = dockerfile.stages.flatMap((s) => s.instructions);
    const pnpmArg = all.find((i) => i.keyword === 'ARG' && i.args.startsWith('PNPM_VERSION='));
    expect(pnpmArg?.args).toBe(`PNPM_VERSION=${version}`);
    expect(all.some((i) => i.keyword === 'RUN' && i.args.includes('pnpm@${PNPM_VERSION}'))).toBe(true);
    expect(all.some((i) => i.keyword === 'RUN' && /pnpm install .*--frozen-lockfile/.test(i.args))).toBe(
      true,
    );
  });

  it.each(PROCESSES)(
    'has a target %s: node 20 slim, non-root, its entry, ports, SIGTERM, readiness check',
    (name) => {
      expect(dockerfile.stages.map((s) => s.name)).toContain(name);
      expect(dockerfile.baseImage(name)).toMatch(/^node:20(\.\d+)*-bookworm-slim(@sha256:[0-9a-f]+)?$/);
      const chain = dockerfile.chain(name);

      expect(JSON.parse(lastOf(chain, 'ENTRYPOINT') ?? 'null')).toEqual(['node', '--conditions=compiled']);
      expect(JSON.parse(lastOf(chain, 'CMD') ?? 'null')).toEqual([compiledEntry(ENTRIES[name])]);
      // The runtime holds the compiled tree only (scripts/runtime-tree.ts), never the build stage's workspace.
      const copies = chain.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      expect(copies).toEqual(['--from=build /runtime /app']);

      const env = Object.fromEntries(
        chain
          .filter((i) => i.keyword === 'ENV')
          .flatMap((i) =>
            [...i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2]!.replace(/^"|"$/g, '')]),
          ),
      ) as Env;
      expect(env.PORT).toBe(String(APP_PORTS[name]));
      for (const [key, value] of Object.entries(env)) {
        if (!['CI', 'NODE_ENV'].includes(key)) {
          expect(KNOWN_ENV[kindOf(name)].has(key), `ENV ${key}`).toBe(true);
        }
        if (key === 'HEALTH_PORT') expect(value).toBe(String(HEALTH_PORT));
        if (key === 'METRICS_PORT') expect(value).toBe(String(METRICS_PORT));
      }

      const exposed = chain
        .filter((i) => i.keyword === 'EXPOSE')
        .flatMap((i) => i.args.split(/\s+/).map(Number));
      expect(exposed.sort()).toEqual([APP_PORTS[name], HEALTH_PORT, METRICS_PORT].sort());

      const user = lastOf(chain, 'USER') ?? 'root';
      expect(user).not.toMatch(/^(root|0)(:|$)/);
      expect(lastOf(chain, 'STOPSIGNAL')).toBe('SIGTERM');
      const healthcheck = lastOf(chain, 'HEALTHCHECK') ?? '';
      expect(healthcheck).toMatch(/CMD \["node", "-e", ".*\/public\/health\/ready/);
      expect(healthcheck).toMatch(/\|\| 3001\b/);
    },
  );

  it('compiles in the build stage and lays out the runtime tree there', () => {
    const build = dockerfile.stages.find((s) => s.name === 'build');
    const runs = (build?.instructions ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /pnpm install --frozen-lockfile --offline && pnpm build/.test(r))).toBe(true);
    expect(runs.some((r) => r.includes('scripts/runtime-tree.ts /runtime'))).toBe(true);
  });

  it('bakes in no secret', () => {
    const all = dockerfile.stages.flatMap((s) => s.instructions);
    const declared = all
      .filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')
      .flatMap((i) => [...i.args.matchAll(/(\w+)=/g)].map((m) => m[1]));
    for (const secret of [...SECRET_VARS, 'JWT_PUBLIC_KEY']) expect(declared).not.toContain(secret);
  });
});

/** Docker's .dockerignore semantics, enough for these patterns: globs with * ** ?, `!` re-includes, last wins. */
function dockerIgnored(patterns: string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    const source = pattern
      .split('/')
      .map((part) =>
        part === '**'
          ? '.*'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/\.\*\//g, '(?:.*/)?');
    if (new RegExp(`^${source}(?:/.*)?$`).test(path)) ignored = !negate;
  }
  return ignored;
}

describe('.dockerignore', () => {
  const patterns = readText('.dockerignore')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it.each([
    'node_modules/tsx/package.json',
    'packages/server-kit/node_modules/graphql/index.js',
    '.git/HEAD',
    '.data/tavoli.log',
    '.cache/servers/mongo.jar',
    '.env',
    '.env.production',
  ])('keeps %s out of the build context', (path) => {
    expect(dockerIgnored(patterns, path)).toBe(true);
  });

  it.each([
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    '.npmrc',
    'supergraph.graphql',
    'tsconfig.base.json',
    'test/package.json',
    'bench/package.json',
    'scripts/dev-token.ts',
    'packages/server-kit/src/index.ts',
    'packages/server-kit/package.json',
    ...PROCESSES.map((name) => ENTRIES[name]),
  ])('sends %s to the build', (path) => {
    expect(dockerIgnored(patterns, path)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------------------------------

interface ComposeService {
  image?: string;
  build?: { context?: string; target?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | { target?: number; published?: string | number }>;
  expose?: unknown;
  network_mode?: string;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
  stop_grace_period?: string;
}

const composeText = readText('docker-compose.yml');
// `merge`: the file shares fragments through YAML merge keys (`<<: *anchor`), which compose supports.
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const serviceOf = (name: string): ComposeService => {
  const service = services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return service;
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$. */
function interpolate(value: string, vars: Readonly<Record<string, string>>): string {
  return value.replace(
    /\$\$|\$\{(\w+)(?:(:?)([-?])([^}]*))?\}|\$(\w+)/g,
    (match, name?: string, colon?: string, op?: string, word?: string, bare?: string) => {
      if (match === '$$') return '$';
      const variable = (name ?? bare)!;
      const set = vars[variable];
      const missing = set === undefined || (colon === ':' && set === '');
      if (!missing) return set;
      if (op === '?') throw new Error(`${variable}: ${word}`);
      return op === '-' ? (word ?? '') : '';
    },
  );
}

/** A service's environment as a map, raw (with ${...}) or interpolated with `vars`. */
function composeEnv(name: string, vars?: Readonly<Record<string, string>>): Env {
  const environment = serviceOf(name).environment;
  if (Array.isArray(environment)) throw new Error(`${name}: use the map form of environment`);
  const env: Env = {};
  for (const [key, value] of Object.entries(environment ?? {})) {
    const text = value === null ? '' : String(value);
    env[key] = vars ? interpolate(text, vars) : text;
  }
  return env;
}

const healthcheckCommand = (service: ComposeService) => {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
};

describe('docker-compose.yml', () => {
  it('has the six processes and mongo, nats, redis — nothing else', () => {
    expect(Object.keys(services).sort()).toEqual([...PROCESSES, ...INFRA].sort());
  });

  it('publishes only the gateway’s application port 3000', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.network_mode, `${name}: network_mode`).toBeUndefined();
      if (name !== 'gateway') expect(service.ports ?? [], `${name}: ports`).toEqual([]);
    }
    const targets = (serviceOf('gateway').ports ?? []).map((entry) =>
      typeof entry === 'object'
        ? Number(entry.target)
        : Number(String(entry).split(':').at(-1)?.split('/')[0]),
    );
    expect(targets).toEqual([APP_PORTS.gateway]);
  });

  it.each(PROCESSES)('%s is built from its own Dockerfile target and tagged coperto/<name>', (name) => {
    const service = serviceOf(name);
    expect(service.build?.context).toBe('.');
    expect(service.build?.target).toBe(name);
    expect(dockerfile.stages.map((s) => s.name)).toContain(service.build?.target);
    expect(service.image).toMatch(new RegExp(`^coperto/${name}:`));
  });

  it.each(PROCESSES)('%s has a node healthcheck on /public/health/ready at its HEALTH_PORT', (name) => {
    const service = serviceOf(name);
    expect(service.healthcheck?.disable).not.toBe(true);
    expect(service.healthcheck?.test?.[0]).toMatch(/^CMD(-SHELL)?$/);
    const command = healthcheckCommand(service);
    expect(command).toMatch(/^CMD(-SHELL)? node /);
    const port = /http:\/\/(?:127\.0\.0\.1|localhost):(\d+)\/public\/health\/ready\b/.exec(command)?.[1];
    expect(port).toBe(String(HEALTH_PORT));
    expect(composeEnv(name).HEALTH_PORT).toBe(String(HEALTH_PORT));
  });

  it('checks MongoDB with mongosh ping, NATS (JetStream on a volume) on /healthz, Redis with redis-cli ping', () => {
    expect(serviceOf('mongo').image).toBe('mongo:7');
    expect(healthcheckCommand(serviceOf('mongo'))).toMatch(/mongosh .*ping/);
    expect(serviceOf('mongo').volumes?.some((v) => v.endsWith(':/data/db'))).toBe(true);

    const nats = serviceOf('nats');
    expect(nats.image).toMatch(/^nats:2\.10\b/);
    const args = Array.isArray(nats.command)
      ? nats.command.map(String)
      : String(nats.command ?? '').split(/\s+/);
    expect(args).toContain('-js');
    expect(args[args.indexOf('-m') + 1]).toBe('8222');
    const storeDir = args[args.indexOf('-sd') + 1];
    expect(nats.volumes?.some((v) => v.endsWith(`:${storeDir}`))).toBe(true);
    expect(healthcheckCommand(nats)).toMatch(/:8222\/healthz\b/);

    expect(serviceOf('redis').image).toBe('redis:7');
    expect(healthcheckCommand(serviceOf('redis'))).toMatch(/redis-cli ping/);
  });

  it.each(PROCESSES)('%s starts after its dependencies are healthy', (name) => {
    const dependsOn = serviceOf(name).depends_on;
    expect(Array.isArray(dependsOn), 'long form, with conditions').toBe(false);
    const entries = Object.entries((dependsOn ?? {}) as Record<string, { condition?: string }>);
    for (const [dependency, { condition }] of entries) {
      expect(condition, `${name} -> ${dependency}`).toBe('service_healthy');
      expect(serviceOf(dependency).healthcheck?.test, `${dependency} healthcheck`).toBeDefined();
    }
    const expected = name === 'gateway' ? ['nats', 'redis', ...SUBGRAPHS] : [...INFRA];
    expect(entries.map(([dependency]) => dependency).sort()).toEqual(expected.sort());
  });

  it.each(PROCESSES)(
    '%s: every variable is one the code reads, and distributed mode has all it needs',
    (name) => {
      checkDistributedEnv(name, composeEnv(name, OPERATOR_SECRETS));
    },
  );

  it.each(PROCESSES)(
    '%s: SUBGRAPH_<NAME>_URL point at compose services, as supergraph.yaml routes',
    (name) => {
      const env = composeEnv(name, OPERATOR_SECRETS);
      const urls = Object.entries(env).filter(([key]) => key.startsWith('SUBGRAPH_'));
      expect(urls.length).toBeGreaterThan(0);
      for (const [key, value] of urls) {
        const subgraph = /^SUBGRAPH_([A-Z]+)_URL$/.exec(key)?.[1]?.toLowerCase() ?? '';
        expect(SUBGRAPHS, key).toContain(subgraph);
        const url = new URL(value);
        expect(url.protocol).toBe('http:');
        expect(url.hostname, key).toBe(subgraph);
        expect(url.pathname).toBe('/graphql');
        expect(url.port, key).toBe(composeEnv(subgraph).PORT);
        expect(url.port, key).toBe(String(APP_PORTS[subgraph as ProcessName]));
        if (routingUrls[subgraph] !== undefined) expect(value, key).toBe(routingUrls[subgraph]);
      }
    },
  );

  it.each(PROCESSES.flatMap((name) => OPERATOR_SECRET_VARS.map((variable) => [name, variable] as const)))(
    '%s takes %s only from the environment, and requires it',
    (name, variable) => {
      const others = { ...OPERATOR_SECRETS, [variable]: undefined };
      const without = Object.fromEntries(Object.entries(others).filter(([, v]) => v !== undefined)) as Env;
      expect(composeEnv(name)[variable]).toMatch(new RegExp(`^\\$\\{${variable}:\\?[^}]*\\}$`));
      expect(() => composeEnv(name, without)).toThrow(new RegExp(variable));
      expect(() => composeEnv(name, { ...without, [variable]: '' })).toThrow(new RegExp(variable));
    },
  );

  it('NATS requires the user and password the processes connect with', () => {
    const nats = serviceOf('nats');
    const args = (Array.isArray(nats.command) ? nats.command : []).map((a) =>
      interpolate(String(a), OPERATOR_SECRETS),
    );
    const env = composeEnv('gateway', OPERATOR_SECRETS);
    expect(args[args.indexOf('--user') + 1]).toBe(env.NATS_USER);
    expect(args[args.indexOf('--pass') + 1]).toBe(PLACEHOLDER_SECRET);
    expect(env.NATS_PASSWORD).toBe(PLACEHOLDER_SECRET);
    expect(() => (nats.command as string[]).map((a) => interpolate(String(a), {}))).toThrow(/NATS_PASSWORD/);
  });

  it.each(PROCESSES)('%s stops within a grace period above the process own limit (32 s or more)', (name) => {
    // Above the process's own limit: SHUTDOWN_DRAIN_MS (1 s in compose) + SHUTDOWN_GRACE_MS (25 s) + 5 s.
    expect(serviceOf(name).stop_grace_period).toMatch(/^(3[2-9]|[4-9]\d|\d{3,})s$/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// deploy/ (Kubernetes)
// ---------------------------------------------------------------------------------------------------------------

interface K8sEnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface K8sProbe {
  httpGet?: { path?: string; port?: string | number };
  [key: string]: unknown;
}
interface K8sContainer {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: K8sEnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  startupProbe?: K8sProbe;
  livenessProbe?: K8sProbe;
  readinessProbe?: K8sProbe;
  securityContext?: { runAsNonRoot?: boolean; allowPrivilegeEscalation?: boolean };
}
interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, unknown>;
  stringData?: Record<string, unknown>;
  resources?: string[];
  spec?: {
    type?: string;
    selector?: { matchLabels?: Record<string, string> } & Record<string, unknown>;
    ports?: Array<{ name?: string; port: number; targetPort?: string | number }>;
    template?: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers?: K8sContainer[];
      };
    };
  };
}

const deployFiles = readdirSync(join(repoRoot, 'deploy'))
  .filter((file) => /\.ya?ml$/.test(file))
  .sort();
const manifestTexts = Object.fromEntries(deployFiles.map((file) => [file, readText(`deploy/${file}`)]));
const manifests: Array<K8sObject & { file: string }> = deployFiles.flatMap((file) =>
  parseAllDocuments(manifestTexts[file] ?? '').flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`deploy/${file}: ${doc.errors[0]?.message}`);
    const object = doc.toJS() as K8sObject | null;
    return object ? [{ ...object, file }] : [];
  }),
);
const findObject = (kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.metadata?.name === name && m.kind !== 'Kustomization');
const containerOf = (name: string): K8sContainer => {
  const containers = findObject('Deployment', name)?.spec?.template?.spec?.containers ?? [];
  expect(containers, `${name}: one container`).toHaveLength(1);
  const container = containers[0];
  if (!container) throw new Error(`Deployment ${name} has no container`);
  return container;
};
const namedPort = (container: K8sContainer, port: string | number | undefined) =>
  typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;

/** A container's environment, resolved through its ConfigMaps; secretKeyRef values become `secretValue`. */
function k8sEnv(container: K8sContainer, secretValue: string): { env: Env; fromSecrets: string[] } {
  const env: Env = {};
  const fromSecrets: string[] = [];
  const configMap = (name: string) => {
    const object = findObject('ConfigMap', name);
    if (!object) throw new Error(`ConfigMap ${name} is not in deploy/`);
    return Object.fromEntries(Object.entries(object.data ?? {}).map(([k, v]) => [k, String(v)]));
  };
  for (const source of container.envFrom ?? []) {
    if (source.secretRef) throw new Error('envFrom secretRef hides the variable names: use secretKeyRef');
    if (source.configMapRef) Object.assign(env, configMap(source.configMapRef.name));
  }
  for (const variable of container.env ?? []) {
    if (variable.valueFrom?.secretKeyRef) {
      // Each operator secret its own placeholder (the service-token key must differ from the JWT secret).
      env[variable.name] = (OPERATOR_SECRETS as Record<string, string>)[variable.name] ?? secretValue;
      fromSecrets.push(variable.name);
    } else if (variable.valueFrom?.configMapKeyRef) {
      const { name, key } = variable.valueFrom.configMapKeyRef;
      env[variable.name] = configMap(name)[key] ?? '';
    } else {
      env[variable.name] = variable.value ?? '';
    }
  }
  return { env, fromSecrets };
}

describe('deploy/ (Kubernetes)', () => {
  it('every file parses, and kustomization.yaml lists every other one', () => {
    expect(deployFiles).toContain('kustomization.yaml');
    const kustomization = manifests.find((m) => m.kind === 'Kustomization');
    expect(kustomization?.file).toBe('kustomization.yaml');
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(
      deployFiles.filter((f) => f !== 'kustomization.yaml'),
    );
  });

  it('has a Deployment and a Service for each process, and no other workload', () => {
    for (const name of PROCESSES) {
      expect(findObject('Deployment', name), `Deployment ${name}`).toBeDefined();
      expect(findObject('Service', name), `Service ${name}`).toBeDefined();
    }
    const workloads = manifests.filter((m) =>
      ['Deployment', 'StatefulSet', 'DaemonSet'].includes(m.kind ?? ''),
    );
    expect(workloads.map((m) => m.metadata?.name).sort()).toEqual([...PROCESSES].sort());
  });

  it.each(PROCESSES)(
    '%s: image coperto/<name>, container ports app/health/metrics, selectors match',
    (name) => {
      const deployment = findObject('Deployment', name)!;
      const container = containerOf(name);
      expect(container.image).toMatch(new RegExp(`^coperto/${name}:`));
      expect(container.ports).toEqual([
        { name: 'app', containerPort: APP_PORTS[name] },
        { name: 'health', containerPort: HEALTH_PORT },
        { name: 'metrics', containerPort: METRICS_PORT },
      ]);
      const podLabels = deployment.spec?.template?.metadata?.labels ?? {};
      const selector = deployment.spec?.selector?.matchLabels ?? {};
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      expect(podLabels).toMatchObject(selector);
      const service = findObject('Service', name)!;
      expect(podLabels).toMatchObject((service.spec?.selector ?? { none: 'none' }) as Record<string, string>);
    },
  );

  it.each(PROCESSES)(
    '%s: Service is ClusterIP on the app port only (subgraph port = supergraph.yaml)',
    (name) => {
      const service = findObject('Service', name)!;
      const container = containerOf(name);
      expect(service.spec?.type ?? 'ClusterIP').toBe('ClusterIP');
      const ports = service.spec?.ports ?? [];
      expect(ports).toHaveLength(1);
      expect(ports[0]?.port).toBe(APP_PORTS[name]);
      expect(namedPort(container, ports[0]?.targetPort ?? ports[0]?.port)).toBe(APP_PORTS[name]);
      const routing = routingUrls[name];
      if (routing !== undefined) {
        expect(`http://${service.metadata?.name}:${ports[0]?.port}/graphql`).toBe(routing);
      }
    },
  );

  it.each(PROCESSES)(
    '%s: startup, liveness and readiness probes exactly as the health probe constants',
    (name) => {
      const container = containerOf(name);
      for (const key of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
        const probe = container[key];
        const resolved = probe && {
          ...probe,
          httpGet: probe.httpGet && { ...probe.httpGet, port: namedPort(container, probe.httpGet.port) },
        };
        expect(resolved, `${name} ${key}`).toEqual(EXPECTED_PROBES[key]);
      }
    },
  );

  it.each(PROCESSES)('%s: graceful shutdown fits the grace period; non-root', (name) => {
    const pod = findObject('Deployment', name)?.spec?.template?.spec;
    const env = k8sEnv(containerOf(name), PLACEHOLDER_SECRET).env;
    const drain = Number(env.SHUTDOWN_DRAIN_MS);
    const grace = Number(env.SHUTDOWN_GRACE_MS ?? 25_000);
    expect(drain).toBeGreaterThan(0);
    expect(grace).toBeGreaterThanOrEqual(25_000);
    // The process's own hard limit is drain + grace + SHUTDOWN_STEPS_MARGIN_MS (packages/server-kit/src/host.ts);
    // the kubelet's SIGKILL must come after it.
    expect((pod?.terminationGracePeriodSeconds ?? 0) * 1000).toBeGreaterThan(
      drain + grace + SHUTDOWN_STEPS_MARGIN_MS,
    );
    expect(pod?.securityContext?.runAsNonRoot).toBe(true);
    expect(containerOf(name).securityContext?.allowPrivilegeEscalation).toBe(false);
  });

  it.each(PROCESSES)('%s: Prometheus scrapes the metrics port 3030', (name) => {
    const annotations = findObject('Deployment', name)?.spec?.template?.metadata?.annotations ?? {};
    expect(annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(METRICS_PORT),
      'prometheus.io/path': '/metrics',
    });
    expect(k8sEnv(containerOf(name), PLACEHOLDER_SECRET).env.METRICS_PORT).toBe(String(METRICS_PORT));
  });

  it.each(PROCESSES)(
    '%s: every variable is one the code reads, and distributed mode has all it needs',
    (name) => {
      const { env } = k8sEnv(containerOf(name), PLACEHOLDER_SECRET);
      checkDistributedEnv(name, env);
    },
  );

  it.each(PROCESSES)(
    '%s: SUBGRAPH_<NAME>_URL point at the subgraphs’ Services, as supergraph.yaml routes',
    (name) => {
      const { env } = k8sEnv(containerOf(name), PLACEHOLDER_SECRET);
      const urls = Object.entries(env).filter(([key]) => key.startsWith('SUBGRAPH_'));
      expect(urls.length).toBeGreaterThan(0);
      for (const [key, value] of urls) {
        const subgraph = /^SUBGRAPH_([A-Z]+)_URL$/.exec(key)?.[1]?.toLowerCase() ?? '';
        const url = new URL(value);
        const service = findObject('Service', url.hostname);
        expect(url.hostname, key).toBe(subgraph);
        const servicePorts = service?.spec?.ports?.map((p) => String(p.port));
        expect(servicePorts, key).toContain(url.port);
        expect(url.port, key).toBe(String(APP_PORTS[subgraph as ProcessName]));
        if (routingUrls[subgraph] !== undefined) expect(value, key).toBe(routingUrls[subgraph]);
      }
    },
  );

  it.each(PROCESSES.flatMap((name) => OPERATOR_SECRET_VARS.map((variable) => [name, variable] as const)))(
    '%s: %s comes from a Secret reference, never a value',
    (name, variable) => {
      const container = containerOf(name);
      const { env, fromSecrets } = k8sEnv(container, PLACEHOLDER_SECRET);
      expect(fromSecrets).toContain(variable);
      const entry = container.env?.find((v) => v.name === variable);
      expect(entry?.value).toBeUndefined();
      expect(entry?.valueFrom?.secretKeyRef).toMatchObject({ name: expect.any(String), key: variable });
      if (variable === 'NATS_PASSWORD') expect(env.NATS_USER, `${name}: NATS_USER`).toBeTruthy();
    },
  );

  it('commits no Secret with data, and no JWT_SECRET, NATS_PASSWORD or NATS_TOKEN in a ConfigMap', () => {
    for (const object of manifests) {
      if (object.kind === 'Secret') {
        expect(object.data ?? {}, `${object.file}: Secret data`).toEqual({});
        expect(object.stringData ?? {}, `${object.file}: Secret stringData`).toEqual({});
      }
      if (object.kind === 'ConfigMap') {
        for (const variable of [...OPERATOR_SECRET_VARS, 'NATS_TOKEN'])
          expect(Object.keys(object.data ?? {})).not.toContain(variable);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Secrets, across every deployment file
// ---------------------------------------------------------------------------------------------------------------

describe('no literal secret is committed', () => {
  const files: Record<string, string> = {
    Dockerfile: dockerfileText,
    '.dockerignore': readText('.dockerignore'),
    'docker-compose.yml': composeText,
    ...Object.fromEntries(Object.entries(manifestTexts).map(([file, text]) => [`deploy/${file}`, text])),
  };

  it.each(Object.keys(files))('%s contains no known secret and assigns secret variables no value', (file) => {
    const text = files[file] ?? '';
    for (const secret of [TEST_JWT_SECRET, PLACEHOLDER_SECRET, PLACEHOLDER_SERVICE_SECRET]) {
      expect(text.includes(secret), `${file} contains a known secret`).toBe(false);
    }
    // Assignments `JWT_SECRET: x`, `JWT_SECRET=x` (not comments): only a ${JWT_SECRET...} reference may follow.
    const assignments = text
      .split(/\r?\n/)
      .filter((line) => !line.trim().startsWith('#'))
      .flatMap((line) =>
        [
          ...line.matchAll(
            /(?<!\{)\b(JWT_SECRET|SERVICE_TOKEN_SECRET|NATS_PASSWORD|NATS_TOKEN)\b\s*[:=]\s*(\S.*)?$/g,
          ),
        ].map((m) => ({
          variable: m[1]!,
          value: (m[2] ?? '').trim(),
        })),
      );
    for (const { variable, value } of assignments) {
      expect(value, `${file}: ${variable} value`).toMatch(new RegExp(`^(\\$\\{${variable}[:?}]|$)`));
    }
  });
});
