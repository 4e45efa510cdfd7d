CREATE TABLE "product_batch_tasks" (
	"batch_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	CONSTRAINT "product_batch_tasks_pk" PRIMARY KEY("batch_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "product_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"batch_no" text NOT NULL,
	"goods_name" text DEFAULT '' NOT NULL,
	"profile_id" uuid,
	"raised" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"used" jsonb,
	"computed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"low_c" double precision NOT NULL,
	"high_c" double precision NOT NULL,
	"above_budget_min" integer NOT NULL,
	"below_budget_min" integer NOT NULL,
	"absolute_max_c" double precision NOT NULL,
	"absolute_min_c" double precision,
	"alert_percent" integer DEFAULT 80 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_batch_tasks" ADD CONSTRAINT "product_batch_tasks_batch_id_product_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."product_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_batch_tasks" ADD CONSTRAINT "product_batch_tasks_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_batches" ADD CONSTRAINT "product_batches_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_batches" ADD CONSTRAINT "product_batches_profile_id_product_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."product_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_profiles" ADD CONSTRAINT "product_profiles_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_batch_tasks_task_idx" ON "product_batch_tasks" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_batches_org_batch_uq" ON "product_batches" USING btree ("org_id","batch_no");--> statement-breakpoint
CREATE INDEX "product_batches_profile_idx" ON "product_batches" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_profiles_org_name_uq" ON "product_profiles" USING btree ("org_id","name");