ALTER TABLE "push_rules" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "push_rules" ADD CONSTRAINT "push_rules_task_id_transport_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."transport_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_rules_task_uq" ON "push_rules" USING btree ("task_id");