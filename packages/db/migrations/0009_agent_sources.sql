CREATE TABLE "agent_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"repository_id" uuid NOT NULL,
	"type" text NOT NULL,
	"number" integer,
	"branch" text,
	"behavior" text DEFAULT 'always' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"pr_draft" text,
	"pr_draft_base_branch" text,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_sources" ADD CONSTRAINT "agent_sources_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_sources" ADD CONSTRAINT "agent_sources_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_sources_agent_idx" ON "agent_sources" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agent_sources_repo_number_idx" ON "agent_sources" USING btree ("repository_id","number");