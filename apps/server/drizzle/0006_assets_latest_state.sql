CREATE TABLE "assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" uuid,
	"attrs" jsonb NOT NULL,
	"temp_min" double precision,
	"temp_max" double precision,
	"humidity_min" double precision,
	"humidity_max" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"device_ref" uuid,
	"device_id" text NOT NULL,
	"asset_ref" uuid,
	"asset_kind" text NOT NULL,
	"asset_code" text NOT NULL,
	"asset_name" text NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL,
	"bound_by" text NOT NULL,
	"unbound_at" timestamp with time zone,
	"unbound_by" text
);
--> statement-breakpoint
CREATE TABLE "device_states" (
	"device_ref" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"positioning" text,
	"network" text,
	"speed" double precision,
	"course" double precision,
	"acc" boolean,
	"sensors" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_parent_id_assets_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_asset_ref_assets_id_fk" FOREIGN KEY ("asset_ref") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_states" ADD CONSTRAINT "device_states_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assets_org_kind_code_uq" ON "assets" USING btree ("org_id","kind","code");--> statement-breakpoint
CREATE INDEX "assets_parent_idx" ON "assets" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_bindings_active_uq" ON "device_bindings" USING btree ("device_ref") WHERE unbound_at is null;--> statement-breakpoint
CREATE INDEX "device_bindings_asset_idx" ON "device_bindings" USING btree ("asset_ref","bound_at");--> statement-breakpoint
CREATE INDEX "device_bindings_device_idx" ON "device_bindings" USING btree ("device_ref","bound_at");--> statement-breakpoint
CREATE INDEX "device_states_org_received_idx" ON "device_states" USING btree ("org_id","received_at");--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "last_seen_at";--> statement-breakpoint
-- Devices that reported before this migration start with the state of their newest reading.
INSERT INTO "device_states" ("device_ref", "org_id", "time", "received_at", "lat", "lon", "positioning", "network", "speed", "course", "sensors")
SELECT DISTINCT ON ("device_ref") "device_ref", "org_id", "time", "received_at", "lat", "lon", "positioning", "network", "speed", "course", "sensors"
FROM "telemetry" ORDER BY "device_ref", "time" DESC;
