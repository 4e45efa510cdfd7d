ALTER TABLE "telemetry" DROP CONSTRAINT "telemetry_device_ref_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "telemetry" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "telemetry_device_time_uq";--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_pk" PRIMARY KEY("device_ref","time");
