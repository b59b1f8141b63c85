CREATE TABLE "event_images" (
	"action_uuid" uuid NOT NULL,
	"n" integer NOT NULL,
	"agent_id" uuid NOT NULL,
	"mime_type" text NOT NULL,
	"name" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_images_action_uuid_n_pk" PRIMARY KEY("action_uuid","n")
);
--> statement-breakpoint
ALTER TABLE "event_images" ADD CONSTRAINT "event_images_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_images_agent_idx" ON "event_images" USING btree ("agent_id");