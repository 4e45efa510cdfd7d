CREATE TABLE "legal_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"placed_by" uuid,
	"released_at" timestamp with time zone,
	"released_by" uuid
);
--> statement-breakpoint
CREATE TABLE "retention_removals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"device_ref" uuid NOT NULL,
	"what" text NOT NULL,
	"from_time" timestamp with time zone NOT NULL,
	"to_time" timestamp with time zone NOT NULL,
	"received_from" timestamp with time zone,
	"received_to" timestamp with time zone,
	"readings" bigint NOT NULL,
	"policy_org_id" uuid,
	"policy" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ledger_index" bigint
);
--> statement-breakpoint
CREATE TABLE "retention_rules" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"rows_inherit" boolean DEFAULT true NOT NULL,
	"rows_days" integer,
	"packs_inherit" boolean DEFAULT true NOT NULL,
	"packs_days" integer,
	"packs_floor_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "storage_daily" (
	"org_id" uuid NOT NULL,
	"day" date NOT NULL,
	"row_readings" bigint NOT NULL,
	"row_bytes" bigint NOT NULL,
	"packed_readings" bigint NOT NULL,
	"packs" bigint NOT NULL,
	"pack_bytes" bigint NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_daily_pk" PRIMARY KEY("org_id","day")
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_placed_by_users_id_fk" FOREIGN KEY ("placed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_daily" ADD CONSTRAINT "storage_daily_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_holds_org_idx" ON "legal_holds" USING btree ("org_id","placed_at");--> statement-breakpoint
CREATE INDEX "legal_holds_subject_idx" ON "legal_holds" USING btree ("subject_kind","subject_id");--> statement-breakpoint
CREATE INDEX "retention_removals_device_idx" ON "retention_removals" USING btree ("device_ref","from_time");--> statement-breakpoint
CREATE INDEX "retention_removals_org_idx" ON "retention_removals" USING btree ("org_id","removed_at");