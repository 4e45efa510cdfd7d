CREATE TABLE "alarm_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_levels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"color" text NOT NULL,
	"priority" integer NOT NULL,
	"sound" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"scope" text NOT NULL,
	"targets" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_rule_states" (
	"device_ref" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"rule_id" text NOT NULL,
	"phase" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"peak" double precision,
	"alarm_id" uuid,
	CONSTRAINT "alarm_rule_states_pk" PRIMARY KEY("device_ref","policy_id","rule_id")
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"policy_id" uuid,
	"policy_name" text NOT NULL,
	"rule_id" text NOT NULL,
	"type" text NOT NULL,
	"level_id" uuid NOT NULL,
	"device_ref" uuid NOT NULL,
	"asset_ref" uuid,
	"task_id" uuid,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"lat" double precision,
	"lon" double precision,
	"threshold" double precision NOT NULL,
	"value" double precision,
	"peak" double precision,
	"count" integer DEFAULT 1 NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"closed_by" text,
	"close_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_events" ADD CONSTRAINT "alarm_events_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_levels" ADD CONSTRAINT "alarm_levels_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_policies" ADD CONSTRAINT "alarm_policies_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rule_states" ADD CONSTRAINT "alarm_rule_states_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rule_states" ADD CONSTRAINT "alarm_rule_states_policy_id_alarm_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."alarm_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_policy_id_alarm_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."alarm_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_level_id_alarm_levels_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."alarm_levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_ref_devices_id_fk" FOREIGN KEY ("device_ref") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_asset_ref_assets_id_fk" FOREIGN KEY ("asset_ref") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_events_alarm_idx" ON "alarm_events" USING btree ("alarm_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_levels_org_code_uq" ON "alarm_levels" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "alarm_policies_org_idx" ON "alarm_policies" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "alarms_org_started_idx" ON "alarms" USING btree ("org_id","started_at");--> statement-breakpoint
CREATE INDEX "alarms_device_started_idx" ON "alarms" USING btree ("device_ref","started_at");--> statement-breakpoint
CREATE INDEX "alarms_active_idx" ON "alarms" USING btree ("org_id") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "alarms_level_idx" ON "alarms" USING btree ("level_id");