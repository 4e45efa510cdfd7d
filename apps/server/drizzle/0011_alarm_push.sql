CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"alarm_id" uuid NOT NULL,
	"rule_id" uuid,
	"rule_name" text NOT NULL,
	"event" text NOT NULL,
	"step" integer NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"user_id" uuid,
	"secret" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"response_code" integer,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"response_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"resend" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_escalations" (
	"alarm_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"fired_steps" integer DEFAULT 0 NOT NULL,
	"repeats" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"done" boolean DEFAULT false NOT NULL,
	"cleared_sent" boolean DEFAULT false NOT NULL,
	CONSTRAINT "push_escalations_pk" PRIMARY KEY("alarm_id","rule_id")
);
--> statement-breakpoint
CREATE TABLE "push_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"match" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"language" text NOT NULL,
	"timezone" text NOT NULL,
	"templates" jsonb NOT NULL,
	"steps" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_rule_id_push_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."push_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_escalations" ADD CONSTRAINT "push_escalations_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_escalations" ADD CONSTRAINT "push_escalations_rule_id_push_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."push_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_escalations" ADD CONSTRAINT "push_escalations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_rules" ADD CONSTRAINT "push_rules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_once_uq" ON "deliveries" USING btree ("alarm_id","rule_id","event","step","round","channel","target");--> statement-breakpoint
CREATE INDEX "deliveries_org_created_idx" ON "deliveries" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_alarm_idx" ON "deliveries" USING btree ("alarm_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_user_idx" ON "deliveries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "push_escalations_due_idx" ON "push_escalations" USING btree ("next_at") WHERE not done;--> statement-breakpoint
CREATE INDEX "push_rules_org_idx" ON "push_rules" USING btree ("org_id");