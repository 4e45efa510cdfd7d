CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"name" text NOT NULL,
	"model" text,
	"protocol" text,
	"sim" text,
	"firmware" text,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "devices_device_id_unique" UNIQUE("device_id")
);
--> statement-breakpoint
CREATE TABLE "intake_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_ref" uuid,
	"device_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"channel" text NOT NULL,
	"reason" text NOT NULL,
	"payload" text
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"id" bigserial PRIMARY KEY NOT NULL,
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
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_log" ADD CONSTRAINT "intake_log_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_org_idx" ON "devices" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "intake_log_device_at_idx" ON "intake_log" USING btree ("device_ref","at");--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_device_time_uq" ON "telemetry" USING btree ("device_ref","time");--> statement-breakpoint
CREATE INDEX "telemetry_org_time_idx" ON "telemetry" USING btree ("org_id","time");