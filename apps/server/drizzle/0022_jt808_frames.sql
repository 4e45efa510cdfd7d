CREATE TABLE "jt808_frames" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_ref" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"message_id" integer NOT NULL,
	"serial" integer NOT NULL,
	"summary" jsonb NOT NULL,
	"hex" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jt808_terminals" ADD COLUMN "connected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jt808_terminals" ADD COLUMN "last_frame_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jt808_terminals" ADD COLUMN "last_disconnected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jt808_frames" ADD CONSTRAINT "jt808_frames_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jt808_frames_device_id_idx" ON "jt808_frames" USING btree ("device_ref","id");