CREATE TABLE "webhook_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"action" text,
	"installation_id" bigint,
	"received_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp (6) with time zone,
	"error" text,
	"request_id" uuid
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received_idx" ON "webhook_deliveries" USING btree ("received_at");