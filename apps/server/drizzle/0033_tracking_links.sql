CREATE TABLE "transport_tracking_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"org_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "transport_tracking_links_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "transport_tracking_links" ADD CONSTRAINT "transport_tracking_links_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tracking_links" ADD CONSTRAINT "transport_tracking_links_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transport_tracking_links_org_idx" ON "transport_tracking_links" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "transport_tracking_links_task_idx" ON "transport_tracking_links" USING btree ("task_id");