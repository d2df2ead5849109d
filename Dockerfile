# The webhook forwarder as a container image (docs/services.md, "Deployment example"). No container
# runtime runs on the project's machines: this file has not been built there. What has been run is what
# it runs: `npm run build:services`, and the bundle under `node` with only the modules of
# `npm ci --omit=dev --workspace services` (the services' own dependencies, services/package.json).

# Build: the dev dependencies (esbuild) bundle the programs into out/services.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/package.json ./services/
# No install scripts: the only one the build would want is Electron's binary download, not needed here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build:services

# Run: the services' runtime dependencies and the bundle, nothing else (no tsx, no sources, none of the
# app's packages: React, Electron's, uPlot).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY services/package.json ./services/
RUN npm ci --omit=dev --workspace services --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/out/services ./out/services
USER node
# 8080: intake and /listen (public, through the balancer); 8081: the developer portal. 8082, the admin
# listener (/healthz, /readyz, /metrics), is on the container's loopback unless --admin-host says otherwise
# (docs/services.md, "Production checklist"), so it is not exposed.
EXPOSE 8080 8081
# Alive: the process answers (readiness, /readyz, is the orchestrator's and the balancer's to ask). Run
# inside the container, so the admin listener's loopback default reaches it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8082/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Add "--cloud-url", "https://<your cloud>" to take listener registrations naming a hub; without it they are
# refused (docs/services.md, "Deployment example").
# node is PID 1 and the program itself (exec form, no shell, no npm): SIGTERM reaches the handler that
# drains (services/shared/exit-on-signals.ts). PID 1 gets no default signal actions from the kernel, but
# the program installs its own for SIGTERM and SIGINT; and it starts no child processes (the legacy
# sandbox is worker threads), so there are no zombies to reap: no --init or tini needed.
STOPSIGNAL SIGTERM
CMD ["node", "out/services/forwarder-cli.js", "--host", "0.0.0.0", "--port", "8080", "--admin-port", "8082", "--portal-port", "8081"]
