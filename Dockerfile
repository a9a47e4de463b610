# The rbench command in a container, for the sharded Kubernetes Job of docs/distributed.md:
#   docker build -t registry.example.com/rbench:0.1.0 .
#   docker run --rm registry.example.com/rbench:0.1.0 run /scenario/load.rbench --url redis://redis:6379 --yes
# Two stages: the build stage has the dev tools (TypeScript, esbuild); the runtime stage only dist/ and the
# production dependencies, run as the unprivileged `node` user. Base images are pinned to a Node 20 release.

FROM node:20.18.1-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY esbuild.mjs tsconfig.json ./
COPY src ./src
COPY webview ./webview
RUN npm run build

FROM node:20.18.1-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /opt/rbench
COPY package.json package-lock.json ./
# No install scripts: nothing may download a binary at install time.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
RUN ln -s /opt/rbench/dist/cli.js /usr/local/bin/rbench && mkdir /runs && chown node:node /runs
USER node
# Run files go to .rbench/runs under the working folder (mount a volume here, or pass --out).
WORKDIR /runs
ENTRYPOINT ["rbench"]
CMD ["--help"]
