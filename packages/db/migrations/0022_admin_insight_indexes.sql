CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leads_user_idx" ON "leads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "session_events_user_idx" ON "session_events" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "agents_created_idx" ON "agents" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "conversation_items_people_time_idx" ON "conversation_items" USING btree ("timestamp") WHERE "conversation_items"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "conversation_items_errors_time_idx" ON "conversation_items" USING btree ("timestamp") WHERE "conversation_items"."action_type" = 'ErrorEvent';--> statement-breakpoint
CREATE INDEX "credit_transactions_kind_created_idx" ON "credit_transactions" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "spice_messages_stats_time_idx" ON "spice_messages" USING btree ("timestamp") WHERE "spice_messages"."response_stats" IS NOT NULL;