CREATE TABLE "track_archive_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"closed_through" date,
	"received_mark" timestamp with time zone,
	"lease" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "track_days" (
	"device_ref" uuid NOT NULL,
	"day" date NOT NULL,
	"org_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"packed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "track_days_pk" PRIMARY KEY("device_ref","day")
);
--> statement-breakpoint
-- Packs are already dense floats: stored out of line without a compression attempt.
ALTER TABLE "track_days" ALTER COLUMN "data" SET STORAGE EXTERNAL;
