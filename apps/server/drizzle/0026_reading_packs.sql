-- The readings archive (issue 24) replaces the position archive: `track_days` held copies of
-- positions only, rebuilt from the rows, so it is dropped and the job packs every closed day
-- again, every column, into `reading_days`.
CREATE TABLE "reading_archive_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"closed_through" date,
	"received_mark" timestamp with time zone,
	"lease" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reading_days" (
	"device_ref" uuid NOT NULL,
	"day" date NOT NULL,
	"org_id" uuid NOT NULL,
	"readings" integer NOT NULL,
	"first_time" timestamp with time zone NOT NULL,
	"last_time" timestamp with time zone NOT NULL,
	"received_from" timestamp with time zone NOT NULL,
	"received_to" timestamp with time zone NOT NULL,
	"data" "bytea" NOT NULL,
	"raw" "bytea" NOT NULL,
	"packed_at" timestamp with time zone NOT NULL,
	"stale" boolean DEFAULT false NOT NULL,
	CONSTRAINT "reading_days_pk" PRIMARY KEY("device_ref","day")
);
--> statement-breakpoint
DROP TABLE "track_archive_state" CASCADE;--> statement-breakpoint
DROP TABLE "track_days" CASCADE;--> statement-breakpoint
CREATE INDEX "reading_days_org_day_idx" ON "reading_days" USING btree ("org_id","day");--> statement-breakpoint
-- Packs are brotli already: stored out of line without PostgreSQL's own compression attempt.
ALTER TABLE "reading_days" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "reading_days" ALTER COLUMN "raw" SET STORAGE EXTERNAL;
