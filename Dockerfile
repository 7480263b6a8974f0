# Build a static binary, then ship it alone.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The release and its commit (calendar version, the first log line,
# calendar_build_info): .git stays out of the image, so the toolchain records
# neither. docker build --build-arg VERSION=1.0.0 --build-arg COMMIT=$(git rev-parse --short=12 HEAD) .
ARG VERSION=devel
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/calendar ./cmd/calendar
# The data directory, made here (the final image has no shell): owned by the
# user the service runs as, since a new volume takes the ownership of the
# directory it is mounted on, and the service must write there.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/calendar /calendar
COPY --from=build --chown=65532:65532 /out/data /data
ENV CALENDAR_ADDR=0.0.0.0:8080 \
    CALENDAR_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
# nonroot is 65532:65532 in the distroless images.
USER 65532:65532
ENTRYPOINT ["/calendar"]
