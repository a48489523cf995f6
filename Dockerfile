# syntax=docker/dockerfile:1
# One image, three programs: assay-server (default), assay-worker, assay-ctl.
# The build stages run the same steps as the Makefile (web-build, go-build).

# Node 22 (LTS); package.json `engines` also admits 20.19+, which CI runs (docs/architecture.md).
FROM node:22-bookworm-slim AS web
WORKDIR /src/web
# .npmrc carries engine-strict: a package that does not support this Node.js fails the build.
COPY web/package.json web/package-lock.json web/.npmrc ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
COPY pkg/httpapi/testdata/openapi.golden.json /src/pkg/httpapi/testdata/openapi.golden.json
RUN npm run build

FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
# The starter standards, built into assay-server so that a first run imports them offline:
# downloaded from the CycloneDX catalogue on GitHub and checked against the SHA-256 of
# standards/starter/files/README.md (they are not in the repository: standards/starter/README.md).
# A release image must have them, so a failure fails the build; a build context that has them
# already (scripts/fetch-starter-standards.sh run before, e.g. with SOURCE=<dir>) is used as is.
RUN bash scripts/fetch-starter-standards.sh
ARG VERSION=dev
RUN make go-build VERSION=${VERSION}

# The runtime carries the PostgreSQL server binaries for the embedded database mode
# (DATABASE_PROVIDER=pglite) and a postgres account to run as.
FROM postgres:17-bookworm
COPY --from=go /src/bin/assay-server /src/bin/assay-worker /src/bin/assay-ctl /usr/local/bin/
RUN mkdir -p /app/data && chown -R postgres:postgres /app
WORKDIR /app
USER postgres
ENV PORT=3001 \
    PGLITE_DATA_DIR=/app/data/pglite \
    PG_BIN_DIR=/usr/lib/postgresql/17/bin
VOLUME ["/app/data"]
EXPOSE 3001
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["/usr/local/bin/assay-ctl", "healthcheck"]
# Override the postgres image's entrypoint: the service manages its own database server.
ENTRYPOINT []
CMD ["/usr/local/bin/assay-server"]
