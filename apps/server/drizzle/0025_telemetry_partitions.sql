-- The readings table becomes range-partitioned by "time": one partition per UTC month
-- (telemetry_pYYYY_MM) and a DEFAULT partition for a reading whose month has none, so that
-- removing a month is dropping a table instead of deleting rows (db/partitions.ts creates the
-- months ahead, moves rows out of the default partition, and drops months). Same columns, same
-- primary key and indexes: readers and the intake's insert are unchanged.
--
-- An existing installation keeps every reading: the old table is renamed aside, a partition is
-- created for every month that has readings, the rows are copied, and the old table is dropped.
-- The key and the indexes are built after the copy (faster than maintaining them row by row).
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_unpartitioned" RENAME CONSTRAINT "telemetry_pk" TO "telemetry_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "telemetry_org_time_idx" RENAME TO "telemetry_unpartitioned_org_time_idx";--> statement-breakpoint
ALTER INDEX "telemetry_received_brin" RENAME TO "telemetry_unpartitioned_received_brin";--> statement-breakpoint
CREATE TABLE "telemetry" (
	"org_id" uuid NOT NULL,
	"device_ref" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"positioning" text,
	"network" text,
	"speed" double precision,
	"course" double precision,
	"raw" jsonb NOT NULL,
	"sensors" jsonb NOT NULL
) PARTITION BY RANGE ("time");--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
-- A partition for every month that has readings, and for this month and the next two (the
-- maintenance job keeps creating those ahead from now on). Bounds are UTC month starts.
DO $$
DECLARE
	m timestamp;
BEGIN
	FOR m IN
		SELECT DISTINCT date_trunc('month', "time" AT TIME ZONE 'UTC') FROM "telemetry_unpartitioned"
		UNION
		SELECT date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k) FROM generate_series(0, 2) AS k
		ORDER BY 1
	LOOP
		-- A month outside years 1-9999 (a clock gone wild) stays in the default partition.
		CONTINUE WHEN NOT isfinite(m) OR m < '0001-01-01' OR m >= '9999-12-01';
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "telemetry" FOR VALUES FROM (%L) TO (%L)',
			'telemetry_p' || to_char(m, 'YYYY_MM'),
			to_char(m, 'YYYY-MM-DD') || ' 00:00:00+00',
			to_char(m + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00'
		);
	END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "telemetry" ("org_id", "device_ref", "time", "received_at", "lat", "lon", "positioning", "network", "speed", "course", "raw", "sensors")
SELECT "org_id", "device_ref", "time", "received_at", "lat", "lon", "positioning", "network", "speed", "course", "raw", "sensors" FROM "telemetry_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_pk" PRIMARY KEY("device_ref","time");--> statement-breakpoint
CREATE INDEX "telemetry_org_time_idx" ON "telemetry" USING btree ("org_id","time");--> statement-breakpoint
-- The ledger reads readings by the minute they were stored (a block-range index per partition).
CREATE INDEX "telemetry_received_brin" ON "telemetry" USING brin ("received_at");
