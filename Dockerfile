# Build a static binary, then ship it alone.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/calendar ./cmd/calendar

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/calendar /calendar
ENV CALENDAR_ADDR=0.0.0.0:8080 \
    CALENDAR_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
USER nonroot
ENTRYPOINT ["/calendar"]
