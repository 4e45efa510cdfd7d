CREATE TABLE "warehouse_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"warehouse_ref" uuid,
	"warehouse_code" text NOT NULL,
	"warehouse_name" text NOT NULL,
	"room_ref" uuid,
	"room_kind" text,
	"room_code" text,
	"room_name" text,
	"direction" text NOT NULL,
	"goods_name" text NOT NULL,
	"batch_no" text DEFAULT '' NOT NULL,
	"quantity" double precision NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"handler" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"temperature" double precision,
	"humidity" double precision,
	"reading_time" timestamp with time zone,
	"reading_device_id" text,
	"audit_status" text DEFAULT 'pending' NOT NULL,
	"reviewer_id" uuid,
	"reviewer" text,
	"reviewed_at" timestamp with time zone,
	"audit_reason" text DEFAULT '' NOT NULL,
	"created_by_id" uuid,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "warehouse_records" ADD CONSTRAINT "warehouse_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_records" ADD CONSTRAINT "warehouse_records_warehouse_ref_assets_id_fk" FOREIGN KEY ("warehouse_ref") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_records" ADD CONSTRAINT "warehouse_records_room_ref_assets_id_fk" FOREIGN KEY ("room_ref") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_records" ADD CONSTRAINT "warehouse_records_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_records" ADD CONSTRAINT "warehouse_records_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "warehouse_records_org_time_idx" ON "warehouse_records" USING btree ("org_id","time");--> statement-breakpoint
CREATE INDEX "warehouse_records_warehouse_idx" ON "warehouse_records" USING btree ("warehouse_ref","time");--> statement-breakpoint
CREATE INDEX "warehouse_records_room_idx" ON "warehouse_records" USING btree ("room_ref","time");