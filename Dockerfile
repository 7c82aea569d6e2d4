# Golf Solitaire server: a static binary on a minimal image.
#
#   docker build -t golfsolitaire .
#   docker run -p 8080:8080 golfsolitaire                      # rooms in memory
#   docker run -p 8080:8080 -e REDIS_URL=redis://redis:6379/0 golfsolitaire
#
# See docs/deploy.md for several instances behind a load balancer.

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Modules first, so code changes do not refetch them.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Templates and static files are embedded; the generated *_templ.go files
# are committed, so no generation step is needed here.
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/golfsolitaire .

# distroless/static: no shell, CA certificates for rediss://, and a
# non-root user (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/golfsolitaire /golfsolitaire
USER nonroot:nonroot
ENV GOLF_ADDR=:8080
# Metrics on a listener of their own: reachable by a scraper on the
# container network, never published with -p (docs/deploy.md "Metrics").
ENV GOLF_METRICS_ADDR=:9090
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=4s --start-period=5s --retries=3 \
	CMD ["/golfsolitaire", "healthcheck", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/golfsolitaire"]
CMD ["serve"]
