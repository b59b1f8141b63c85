CREATE TABLE "runner_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runner_worker_ids" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"process_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runner_worker_ids" ADD CONSTRAINT "runner_worker_ids_process_id_runner_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."runner_processes"("id") ON DELETE cascade ON UPDATE no action;