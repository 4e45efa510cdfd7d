CREATE TABLE "scope_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "scope_version" ("id", "n") VALUES (true, 0);
--> statement-breakpoint
-- Moves the counter once per statement that may change a caller's scope (organisation tree,
-- organisation of a user, roles of a user, permissions of a role): cached scopes are dropped.
CREATE FUNCTION "bump_scope_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "scope_version" SET "n" = "n" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "orgs_scope_version" AFTER INSERT OR DELETE OR UPDATE OF "parent_id", "status" OR TRUNCATE ON "orgs" FOR EACH STATEMENT EXECUTE FUNCTION "bump_scope_version"();
--> statement-breakpoint
CREATE TRIGGER "users_scope_version" AFTER DELETE OR UPDATE OF "org_id", "is_platform_admin" OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_scope_version"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_scope_version" AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON "user_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_scope_version"();
--> statement-breakpoint
CREATE TRIGGER "role_permissions_scope_version" AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON "role_permissions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_scope_version"();
