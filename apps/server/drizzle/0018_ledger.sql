CREATE TABLE "ledger_checkpoints" (
	"size" bigint PRIMARY KEY NOT NULL,
	"root_hash" "bytea" NOT NULL,
	"note" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_leaves" (
	"idx" bigint PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"data" "bytea" NOT NULL,
	"leaf_hash" "bytea" NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"device_ref" uuid,
	"task_id" uuid,
	"warehouse_record_id" uuid,
	"alarm_id" uuid,
	"logged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_leaves_ref_unique" UNIQUE("ref")
);
--> statement-breakpoint
CREATE TABLE "ledger_nodes" (
	"level" smallint NOT NULL,
	"idx" bigint NOT NULL,
	"hash" "bytea" NOT NULL,
	CONSTRAINT "ledger_nodes_pk" PRIMARY KEY("level","idx")
);
--> statement-breakpoint
CREATE TABLE "ledger_shares" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"scope" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_watermarks" (
	"source" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_shares" ADD CONSTRAINT "ledger_shares_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_leaves_device_idx" ON "ledger_leaves" USING btree ("device_ref","at");--> statement-breakpoint
CREATE INDEX "ledger_leaves_task_idx" ON "ledger_leaves" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "ledger_leaves_warehouse_idx" ON "ledger_leaves" USING btree ("warehouse_record_id");--> statement-breakpoint
CREATE INDEX "ledger_shares_org_idx" ON "ledger_shares" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "telemetry_received_brin" ON "telemetry" USING brin ("received_at");