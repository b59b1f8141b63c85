CREATE TABLE "membership_overrides" (
	"installation_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"role" "membership_role",
	"updated_by" uuid,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_overrides_installation_id_user_id_pk" PRIMARY KEY("installation_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "membership_overrides" ADD CONSTRAINT "membership_overrides_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_overrides" ADD CONSTRAINT "membership_overrides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_overrides" ADD CONSTRAINT "membership_overrides_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_overrides_user_idx" ON "membership_overrides" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "credit_transactions_installation_kind_idx" ON "credit_transactions" USING btree ("installation_id","kind","created_at");