CREATE TABLE "billing_accounts" (
	"installation_id" bigint PRIMARY KEY NOT NULL,
	"stripe_customer_id" text,
	"customer_provider" text,
	"receipt_email" text DEFAULT '' NOT NULL,
	"auto_fill_enabled" boolean DEFAULT false NOT NULL,
	"auto_fill_threshold" integer DEFAULT 500 NOT NULL,
	"auto_fill_amount" integer DEFAULT 2000 NOT NULL,
	"auto_fill_pending_at" timestamp (6) with time zone,
	"auto_fill_error" text,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_transactions_invoice_key" ON "credit_transactions" USING btree ("invoice_id") WHERE "credit_transactions"."kind" = 'invoice' and "credit_transactions"."invoice_id" is not null;