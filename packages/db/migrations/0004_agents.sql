CREATE TABLE "agent_reads" (
	"agent_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_reads_agent_id_user_id_pk" PRIMARY KEY("agent_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer NOT NULL,
	"title" text DEFAULT 'New Chat' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"repository_id" uuid,
	"installation_id" bigint NOT NULL,
	"creator_id" uuid NOT NULL,
	"model" text NOT NULL,
	"review_model" text,
	"summarization_limit" integer NOT NULL,
	"cur_tokens" integer DEFAULT 0 NOT NULL,
	"credits_spent" bigint DEFAULT 0 NOT NULL,
	"agent_type" text DEFAULT 'editor' NOT NULL,
	"supervisor_id" uuid,
	"base_branch" text,
	"archived" boolean DEFAULT false NOT NULL,
	"cur_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"latest_timestamp" timestamp (6) with time zone,
	"last_active" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"timestamp" timestamp(6) with time zone NOT NULL,
	"item_type" text NOT NULL,
	"action_uuid" uuid NOT NULL,
	"pid" integer,
	"action_type" text,
	"user_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_reads" ADD CONSTRAINT "agent_reads_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_reads" ADD CONSTRAINT "agent_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_items" ADD CONSTRAINT "conversation_items_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_items" ADD CONSTRAINT "conversation_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_installation_created_idx" ON "agents" USING btree ("installation_id","archived","created_at");--> statement-breakpoint
CREATE INDEX "agents_installation_active_idx" ON "agents" USING btree ("installation_id","archived","last_active");--> statement-breakpoint
CREATE INDEX "agents_creator_idx" ON "agents" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_repository_number_key" ON "agents" USING btree ("repository_id","number");--> statement-breakpoint
CREATE INDEX "conversation_items_agent_time_idx" ON "conversation_items" USING btree ("agent_id","timestamp");