# syntax=docker/dockerfile:1
#
# Coperto images for the distributed run mode (docs/deployment.md).
#
# One Dockerfile, one final target per process. All six targets share every filesystem layer: the compiled
# workspace (`pnpm build`: dist/ of every package, each entry point bundled) with production dependencies only,
# laid out by scripts/runtime-tree.ts (no sources, no tsx, TypeScript, vitest or prettier); a target only adds its entry
# point, its default PORT and its EXPOSE list. Building all six costs one build:
#
#   docker build --target gateway -t coperto/gateway .
#   docker build --target tavolo  -t coperto/tavolo  .     # sala, prenotazione, bookings, capacity, canali, ospiti, garanzie, promemoria, webhooks, rapporti alike
#
# `docker build .` without --target builds the gateway (the last stage). The entry point is
# `node --conditions=compiled <entry>` (the condition selects each workspace package's dist/), so any image can
# also run another entry: `docker run coperto/gateway subgraphs/sala/dist/index.js` (then set PORT yourself).

# Node 20 on Debian bookworm, slim. Pin a digest (node:20-bookworm-slim@sha256:...) for reproducible builds.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- pnpm, at the version of package.json "packageManager" (test/deploy.test.ts checks they agree) ----
FROM ${NODE_IMAGE} AS pnpm
ARG PNPM_VERSION=10.34.9
# npm rather than corepack: corepack's bundled signing keys lag behind pnpm releases.
RUN npm install --global pnpm@${PNPM_VERSION} && npm cache clean --force
# CI=true: pnpm never prompts. Its store stays in the build stages; the runtime stage copies /app alone.
ENV CI=true
WORKDIR /app

# ---- dependencies, from the lockfile only: this layer is rebuilt only when pnpm-lock.yaml changes ----
FROM pnpm AS fetch
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch

# ---- the workspace, installed offline from the fetched store, then compiled ----
FROM fetch AS build
COPY . .
RUN pnpm install --frozen-lockfile --offline && pnpm build
# What the image runs, in /runtime: manifests, dist/, run-time files, production dependencies only.
RUN pnpm exec tsx scripts/runtime-tree.ts /runtime

# ---- runtime: shared by every process ----
FROM ${NODE_IMAGE} AS runtime
# NODE_OPTIONS (docs/deployment.md, "Memory"): V8's young generation capped at 4 MiB per semi-space (the default
# is 16): idle RSS of the embedded process 127 → 107 MB at the same CPU per request; and an explicit old-space
# limit under 2 GB, which makes V8 grow the heap by at most ≈ 1.6× its live size instead of 4× (the factor it uses
# when the limit it derives from the host's memory is 2 GB or more): peak RSS under mixed load 224–237 → 155–164
# MB. scripts/start.sh and the bench use the same value (test/runtime-flags.test.ts checks they agree).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=1024" \
    APOLLO_TELEMETRY_DISABLED=1 \
    HEALTH_PORT=3001 \
    METRICS_PORT=3030
WORKDIR /app
# Owned by root, read-only for the process; only .data (the embedded store, unused in distributed mode but
# the default of a bare `docker run`) is writable.
COPY --from=build /runtime /app
RUN mkdir -p /app/.data && chown 1000:1000 /app/.data
# The image's `node` user, numerically, so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# Health and metrics; each target adds its application port.
EXPOSE 3001 3030
# The processes handle SIGTERM themselves (readiness 503, drain, finish in-flight, exit 0). Node is PID 1 (exec
# form below), which is fine: it installs its own signal handlers and spawns no children.
STOPSIGNAL SIGTERM
# Readiness, with node (slim images have no curl/wget). Orchestrators use their own probes (deploy/*.yaml).
HEALTHCHECK --interval=10s --timeout=5s --start-period=150s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || 3001) + '/public/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "--conditions=compiled"]

# ---- one target per process; PORT values match supergraph.yaml's routing URLs ----
FROM runtime AS tavolo
ENV PORT=4001
EXPOSE 4001
CMD ["subgraphs/tavolo/dist/index.js"]

FROM runtime AS sala
ENV PORT=4002
EXPOSE 4002
CMD ["subgraphs/sala/dist/index.js"]

FROM runtime AS prenotazione
ENV PORT=4003
EXPOSE 4003
CMD ["subgraphs/prenotazione/dist/index.js"]

FROM runtime AS bookings
ENV PORT=4004
EXPOSE 4004
CMD ["subgraphs/bookings/dist/index.js"]

FROM runtime AS capacity
ENV PORT=4005
EXPOSE 4005
CMD ["subgraphs/capacity/dist/index.js"]

FROM runtime AS canali
ENV PORT=4006
EXPOSE 4006
CMD ["subgraphs/canali/dist/index.js"]
FROM runtime AS ospiti
ENV PORT=4007
EXPOSE 4007
CMD ["subgraphs/ospiti/dist/index.js"]

FROM runtime AS promemoria
ENV PORT=4009
EXPOSE 4009
CMD ["subgraphs/promemoria/dist/index.js"]

FROM runtime AS garanzie
ENV PORT=4008
EXPOSE 4008
CMD ["subgraphs/garanzie/dist/index.js"]

FROM runtime AS webhooks
ENV PORT=4010
EXPOSE 4010
CMD ["subgraphs/webhooks/dist/index.js"]

FROM runtime AS rapporti
ENV PORT=4011
EXPOSE 4011
CMD ["subgraphs/rapporti/dist/index.js"]

# Last, so that a plain `docker build .` builds it. Without COPERTO_MODE=distributed it runs the zero-config
# embedded mode (everything in one process, store in /app/.data): `docker run -p 3000:3000 coperto/gateway`.
FROM runtime AS gateway
ENV PORT=3000
EXPOSE 3000
CMD ["gateway/dist/index.js"]
