CREATE TABLE "agent_side_effects" (
	"agent_id" uuid NOT NULL,
	"key" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_side_effects_agent_id_key_pk" PRIMARY KEY("agent_id","key")
);
--> statement-breakpoint
CREATE TABLE "credit_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"installation_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"kind" text NOT NULL,
	"agent_id" uuid,
	"invoice_id" text,
	"description" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "script_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"repository_id" uuid,
	"agent_id" uuid,
	"path" text NOT NULL,
	"status_code" integer,
	"started_at" timestamp (6) with time zone NOT NULL,
	"duration_ms" integer,
	"commit_sha" text,
	"script_contents" text DEFAULT '' NOT NULL,
	"output" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spice_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"timestamp" timestamp(6) with time zone NOT NULL,
	"role" text NOT NULL,
	"content" jsonb NOT NULL,
	"action_uuid" uuid,
	"response_stats" jsonb,
	"summarized_at" timestamp (6) with time zone
);
--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "credit_balance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "spent_since_message" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "interrupt_requested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_side_effects" ADD CONSTRAINT "agent_side_effects_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "script_logs" ADD CONSTRAINT "script_logs_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "script_logs" ADD CONSTRAINT "script_logs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spice_messages" ADD CONSTRAINT "spice_messages_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_transactions_installation_idx" ON "credit_transactions" USING btree ("installation_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_transactions_agent_idx" ON "credit_transactions" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "script_logs_repository_idx" ON "script_logs" USING btree ("repository_id","started_at");--> statement-breakpoint
CREATE INDEX "spice_messages_agent_time_idx" ON "spice_messages" USING btree ("agent_id","timestamp");--> statement-breakpoint
CREATE INDEX "agents_status_idx" ON "agents" USING btree ("status");--> statement-breakpoint
INSERT INTO "credit_transactions" ("installation_id", "amount", "kind", "description") SELECT "id", 300000, 'other', 'Free credits for new installations' FROM "installations";--> statement-breakpoint
UPDATE "installations" SET "credit_balance" = "credit_balance" + 300000;
