// Command ferretdb-run serves the MongoDB wire protocol on a loopback address with FerretDB v1, for the
// external test suites. It exists because a plain `go install` of FerretDB v1 panics at
// start (its generated version.txt is missing from the module zip, FerretDB#2982); embedding the
// `ferretdb` package from a different main module skips that check and also disables telemetry.
//
// Environment: FERRETDB_ADDR (default 127.0.0.1:27017); FERRETDB_POSTGRESQL_URL, a PostgreSQL database to
// keep the data in (its backend); else SQLite files in FERRETDB_DIR, an existing directory (default: in memory).
package main

import (
	"context"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := os.Getenv("FERRETDB_ADDR")
	if addr == "" {
		addr = "127.0.0.1:27017"
	}
	url := "file:/?mode=memory"
	if dir := os.Getenv("FERRETDB_DIR"); dir != "" {
		url = "file:" + dir + "/"
	}
	handler := "sqlite"
	pgURL := os.Getenv("FERRETDB_POSTGRESQL_URL")
	if pgURL != "" {
		handler = "postgresql"
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: addr},
		Logger:        logger,
		Handler:       handler,
		PostgreSQLURL: pgURL,
		SQLiteURL:     url,
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The start scripts wait for this line; MongoDBURI must not be called before Run (it would deadlock).
	log.Printf("ferretdb-run listening on %s", addr)
	f.Run(ctx)
}
