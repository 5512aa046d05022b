import { describe, expect, it } from 'vitest';
import { hiveGatewayConfig } from './hive.js';
import { apolloRouterConfigYaml } from './apollo-router.js';
import { crateVersionInBinary } from './cargo-binary.js';
import { routerConfigYaml } from './hive-router.js';

const base = { supergraphPath: '/tmp/run/supergraph.graphql', port: 41234 };

describe('hive-router config (scenario 2)', () => {
  it('points the router at the patched supergraph, on loopback, propagating Authorization', () => {
    const text = routerConfigYaml({ ...base, dedupe: true });
    expect(text).toContain('supergraph:\n  source: file\n  path: "/tmp/run/supergraph.graphql"\n');
    expect(text).toContain('http:\n  host: "127.0.0.1"\n  port: 41234\n');
    expect(text).toContain(
      'headers:\n  all:\n    request:\n      - propagate:\n          named: authorization\n',
    );
  });

  it('turns subgraph deduplication off only for the equal-work rows', () => {
    expect(routerConfigYaml({ ...base, dedupe: false })).toContain(
      'traffic_shaping:\n  all:\n    dedupe_enabled: false\n',
    );
    expect(routerConfigYaml({ ...base, dedupe: true })).not.toContain('traffic_shaping');
  });

  it('quotes a path that YAML would otherwise misread', () => {
    expect(routerConfigYaml({ ...base, supergraphPath: '/tmp/a: b #c', dedupe: true })).toContain(
      'path: "/tmp/a: b #c"',
    );
  });

  it('reads the crate version from the binary', () => {
    const bytes = Buffer.from('\0\0.cargo/registry/src/index/hive-router-0.2.0/src/schema_state.rs\0');
    expect(crateVersionInBinary(bytes, 'hive-router')).toBe('0.2.0');
    expect(crateVersionInBinary(Buffer.from('no version here'), 'hive-router')).toBeNull();
  });
});

describe('Hive Gateway config (scenario 2)', () => {
  it('equal work: deduplication off and the per-request header propagated', () => {
    const text = hiveGatewayConfig({ dedupe: false });
    expect(text).toContain('deduplicateInflightRequests: false');
    expect(text).toContain("['authorization', 'x-bench-request']");
  });

  it('defaults: no transport options, only Authorization propagated', () => {
    const text = hiveGatewayConfig({ dedupe: true });
    expect(text).not.toContain('deduplicateInflightRequests');
    expect(text).not.toContain('x-bench-request');
    expect(text).toContain("['authorization']");
  });
});

describe('Apollo Router config (scenario 2)', () => {
  const ports = { port: 41234, healthPort: 41235 };

  it('serves /graphql and the health check on loopback, propagating Authorization', () => {
    const text = apolloRouterConfigYaml({ ...ports, dedupe: true });
    expect(text).toContain('supergraph:\n  listen: "127.0.0.1:41234"\n  path: "/graphql"\n');
    expect(text).toContain('health_check:\n  listen: "127.0.0.1:41235"\n  enabled: true\n');
    expect(text).toContain(
      'headers:\n  all:\n    request:\n      - propagate:\n          named: authorization\n',
    );
  });

  it('writes subgraph deduplication off only for the equal-work rows (off is also its default)', () => {
    expect(apolloRouterConfigYaml({ ...ports, dedupe: false })).toContain(
      'traffic_shaping:\n  all:\n    deduplicate_query: false\n',
    );
    expect(apolloRouterConfigYaml({ ...ports, dedupe: true })).not.toContain('traffic_shaping');
  });

  it('reads the crate version from the binary', () => {
    const bytes = Buffer.from('\0/registry/src/index/apollo-router-2.17.0/src/executable.rs\0');
    expect(crateVersionInBinary(bytes, 'apollo-router')).toBe('2.17.0');
    expect(crateVersionInBinary(Buffer.from('hive-router-0.2.19/src/x.rs'), 'apollo-router')).toBeNull();
  });
});
