-- Share links end (issue 19): each gets an id (the revoke call and the list name it, never the
-- token), its scope's kind (the list filters by the reader's permissions), a required expiry and
-- a revocation. Links made before this migration keep working until then: one without an expiry
-- ends 30 days after the upgrade (the new default), one with an expiry keeps it (at most the
-- 10 years the old call allowed); any of them can be revoked from the list.
ALTER TABLE "ledger_shares" DROP CONSTRAINT "ledger_shares_pkey";--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD COLUMN "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD CONSTRAINT "ledger_shares_token_hash_key" UNIQUE("token_hash");--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD COLUMN "kind" text;--> statement-breakpoint
UPDATE "ledger_shares" SET "kind" = CASE
	WHEN "scope" ? 'taskId' THEN 'task'
	WHEN "scope" ? 'deviceId' THEN 'device'
	WHEN "scope" ? 'warehouseBatch' THEN 'batch'
	ELSE 'warehouseRecord' END;--> statement-breakpoint
ALTER TABLE "ledger_shares" ALTER COLUMN "kind" SET NOT NULL;--> statement-breakpoint
UPDATE "ledger_shares" SET "expires_at" = now() + interval '30 days' WHERE "expires_at" IS NULL;--> statement-breakpoint
ALTER TABLE "ledger_shares" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD COLUMN "revoked_by" text;--> statement-breakpoint
DROP INDEX "ledger_shares_org_idx";--> statement-breakpoint
CREATE INDEX "ledger_shares_org_idx" ON "ledger_shares" USING btree ("org_id","created_at");
