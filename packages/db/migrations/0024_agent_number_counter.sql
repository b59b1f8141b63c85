ALTER TABLE "repositories" ADD COLUMN "last_agent_number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Numbers already taken: the next agent of a repository takes the one after its highest.
UPDATE "repositories" SET "last_agent_number" = coalesce((SELECT max("agents"."number") FROM "agents" WHERE "agents"."repository_id" = "repositories"."id"), 0);
