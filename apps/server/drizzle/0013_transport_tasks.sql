CREATE TABLE "transport_task_devices" (
	"task_id" uuid NOT NULL,
	"device_ref" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "transport_task_devices_pk" PRIMARY KEY("task_id","device_ref")
);
--> statement-breakpoint
CREATE TABLE "transport_task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"code" text NOT NULL,
	"template_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"goods_name" text NOT NULL,
	"goods_quantity" double precision,
	"goods_unit" text DEFAULT '' NOT NULL,
	"goods_value" double precision,
	"high_value" boolean DEFAULT false NOT NULL,
	"customer" text DEFAULT '' NOT NULL,
	"asset_ref" uuid,
	"origin_name" text NOT NULL,
	"origin_lat" double precision NOT NULL,
	"origin_lon" double precision NOT NULL,
	"origin_radius_m" integer NOT NULL,
	"destination_name" text NOT NULL,
	"destination_lat" double precision NOT NULL,
	"destination_lon" double precision NOT NULL,
	"destination_radius_m" integer NOT NULL,
	"planned_distance_m" double precision NOT NULL,
	"planned_start" timestamp with time zone,
	"planned_arrival" timestamp with time zone,
	"driver_name" text DEFAULT '' NOT NULL,
	"driver_phone" text DEFAULT '' NOT NULL,
	"settings" jsonb NOT NULL,
	"started_at" timestamp with time zone,
	"start_mode" text,
	"arrived_at" timestamp with time zone,
	"arrive_mode" text,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"settings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_policies" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "transport_task_devices" ADD CONSTRAINT "transport_task_devices_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_task_devices" ADD CONSTRAINT "transport_task_devices_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_task_events" ADD CONSTRAINT "transport_task_events_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD CONSTRAINT "transport_tasks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD CONSTRAINT "transport_tasks_template_id_transport_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."transport_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD CONSTRAINT "transport_tasks_asset_ref_assets_id_fk" FOREIGN KEY ("asset_ref") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_templates" ADD CONSTRAINT "transport_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transport_task_devices_device_idx" ON "transport_task_devices" USING btree ("device_ref");--> statement-breakpoint
CREATE INDEX "transport_task_events_task_idx" ON "transport_task_events" USING btree ("task_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transport_tasks_org_code_uq" ON "transport_tasks" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "transport_tasks_org_created_idx" ON "transport_tasks" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "transport_tasks_live_idx" ON "transport_tasks" USING btree ("status") WHERE status in ('pending', 'in_transit', 'arrived');--> statement-breakpoint
CREATE UNIQUE INDEX "transport_templates_org_name_uq" ON "transport_templates" USING btree ("org_id","name");--> statement-breakpoint
ALTER TABLE "alarm_policies" ADD CONSTRAINT "alarm_policies_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;