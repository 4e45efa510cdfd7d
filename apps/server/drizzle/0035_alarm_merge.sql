ALTER TABLE "alarms" ADD COLUMN "sources" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "push_rules" ADD COLUMN "quiet_from" text;--> statement-breakpoint
ALTER TABLE "push_rules" ADD COLUMN "quiet_to" text;--> statement-breakpoint
ALTER TABLE "push_rules" ADD COLUMN "digest_minutes" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_recipient_uq" ON "deliveries" USING btree ("alarm_id","event","round","channel","recipient");--> statement-breakpoint
-- Existing alarms: the one rule that raised each is its only source.
UPDATE "alarms" SET "sources" = jsonb_build_array(jsonb_build_object(
  'policyId', "policy_id", 'policyName', "policy_name", 'taskId', "task_id", 'ruleId', "rule_id", 'levelId', "level_id",
  'openedAt', to_char("started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'clearedAt', CASE WHEN "status" = 'active' THEN NULL ELSE to_char(coalesce("ended_at", "last_at") AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END
)) WHERE "sources" = '[]'::jsonb;
