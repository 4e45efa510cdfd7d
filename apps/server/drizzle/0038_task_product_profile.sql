CREATE TABLE "product_task_profiles" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_task_profiles" ADD CONSTRAINT "product_task_profiles_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_task_profiles" ADD CONSTRAINT "product_task_profiles_profile_id_product_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."product_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_task_profiles_profile_idx" ON "product_task_profiles" USING btree ("profile_id");