# syntax=docker/dockerfile:1
# The service as users install it from npm: the packages are packed from this repository (`npm pack`, which builds
# them), installed from the tarballs, and only the installed service goes into the image. Once
# @flagstation/server is published, the build stage can install it by name instead of packing it.
#
#   docker build -t flagstation/service .
#   docker run -p 8000:8000 -v service-data:/data flagstation/service
#
# Both stages use the same Node image: better-sqlite3's native module is built (or downloaded) for it.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
# A C++ toolchain for better-sqlite3 where no prebuilt binary fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The build tools of the two packages the service is made of (no install scripts: nothing is run, only packed).
RUN npm ci --ignore-scripts --no-audit --no-fund -w packages/server -w packages/js --include-workspace-root
# `npm pack` runs each package's prepack (its build): the service (its flag engine bundled in) and service-js,
# whose script-tag build the service serves under /static/.
RUN mkdir /packages && npm pack -w packages/js -w packages/server --pack-destination /packages
# The tarballs installed as a project (not `-g`): the service's dependency on service-js is then met by the packed
# one, not looked up on the registry.
WORKDIR /opt/service
RUN echo '{"private": true, "allowScripts": {"better-sqlite3": true}}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /packages/*.tgz \
 && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    PATH=/opt/service/node_modules/.bin:$PATH
COPY --from=build /opt/service /opt/service
# Here `node -e "require('better-sqlite3')..."` finds the service's modules (the SQLite backup in docs/deployment.md).
WORKDIR /opt/service
# The SQLite database lives in /data; the service runs as the image's unprivileged `node` user.
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8000
# 200 while the database answers, 503 while it does not (see docs/deployment.md).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/_health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Applies the migrations, then serves; on a new database it prints the first project's token and a personal API key.
CMD ["service", "start"]
