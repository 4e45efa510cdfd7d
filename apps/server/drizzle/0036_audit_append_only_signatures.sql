CREATE TABLE "org_tombstones" (
	"id" uuid PRIMARY KEY NOT NULL,
	"parent_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"meaning" text NOT NULL,
	"signer_id" uuid NOT NULL,
	"signer_account" text NOT NULL,
	"signer_name" text NOT NULL,
	"method" text NOT NULL,
	"record_hash" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_logs" DROP CONSTRAINT "audit_logs_org_id_orgs_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_logs" DROP CONSTRAINT "audit_logs_user_id_users_id_fk";
--> statement-breakpoint
CREATE INDEX "org_tombstones_parent_idx" ON "org_tombstones" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "signatures_record_idx" ON "signatures" USING btree ("org_id","record_type","record_id");--> statement-breakpoint
CREATE INDEX "signatures_org_signed_idx" ON "signatures" USING btree ("org_id","signed_at");--> statement-breakpoint
-- The audit log and the signatures are append-only, for everyone: no update, delete or truncate.
CREATE FUNCTION "refuse_change_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_logs_append_only" BEFORE UPDATE OR DELETE ON "audit_logs" FOR EACH ROW EXECUTE FUNCTION "refuse_change_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_logs_no_truncate" BEFORE TRUNCATE ON "audit_logs" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change_append_only"();
--> statement-breakpoint
CREATE TRIGGER "signatures_append_only" BEFORE UPDATE OR DELETE ON "signatures" FOR EACH ROW EXECUTE FUNCTION "refuse_change_append_only"();
--> statement-breakpoint
CREATE TRIGGER "signatures_no_truncate" BEFORE TRUNCATE ON "signatures" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change_append_only"();
