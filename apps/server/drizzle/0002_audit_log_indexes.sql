DROP INDEX "audit_logs_org_at_idx";--> statement-breakpoint
DROP INDEX "audit_logs_at_idx";--> statement-breakpoint
CREATE INDEX "audit_logs_org_at_id_idx" ON "audit_logs" USING btree ("org_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_logs_at_id_idx" ON "audit_logs" USING btree ("at","id");