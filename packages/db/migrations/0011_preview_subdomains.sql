CREATE TABLE "preview_subdomains" (
	"subdomain" text PRIMARY KEY NOT NULL,
	"agent_id" uuid NOT NULL,
	"port" integer NOT NULL,
	"created_by" uuid,
	"last_active_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preview_subdomains" ADD CONSTRAINT "preview_subdomains_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_subdomains" ADD CONSTRAINT "preview_subdomains_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preview_subdomains_agent_port_idx" ON "preview_subdomains" USING btree ("agent_id","port");