CREATE TABLE "jt808_terminals" (
	"device_ref" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"auth_code_hash" text,
	"province" integer,
	"city" integer,
	"manufacturer" text,
	"model" text,
	"terminal_id" text,
	"plate_colour" integer,
	"plate" text,
	"edition" integer,
	"registered_at" timestamp with time zone,
	"last_connected_at" timestamp with time zone,
	"last_address" text,
	"node_id" text
);
--> statement-breakpoint
-- The protocol was free text until now (the demo fleet said 'MQTT'): every device so far reports in
-- the JSON format, except one whose text already named JT/T 808.
UPDATE "devices" SET "protocol" = CASE WHEN lower(replace(replace(coalesce("protocol", ''), '/', ''), ' ', '')) IN ('jt808', 'jtt808') THEN 'jt808' ELSE 'json' END;--> statement-breakpoint
ALTER TABLE "devices" ALTER COLUMN "protocol" SET DEFAULT 'json';--> statement-breakpoint
ALTER TABLE "devices" ALTER COLUMN "protocol" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "jt808_terminals" ADD CONSTRAINT "jt808_terminals_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;