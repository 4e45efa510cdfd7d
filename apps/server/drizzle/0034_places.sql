CREATE TABLE "places" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"shape" text NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"radius_m" integer NOT NULL,
	"polygon" jsonb,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "place_id" uuid;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD COLUMN "origin_place_id" uuid;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD COLUMN "destination_place_id" uuid;--> statement-breakpoint
ALTER TABLE "places" ADD CONSTRAINT "places_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "places_org_name_uq" ON "places" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "places_org_idx" ON "places" USING btree ("org_id","updated_at");--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD CONSTRAINT "transport_tasks_origin_place_id_places_id_fk" FOREIGN KEY ("origin_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_tasks" ADD CONSTRAINT "transport_tasks_destination_place_id_places_id_fk" FOREIGN KEY ("destination_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;