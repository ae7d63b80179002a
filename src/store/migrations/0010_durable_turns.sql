CREATE TABLE "servers" (
	"name" text PRIMARY KEY NOT NULL,
	"agents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turn_events" (
	"turn_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"event" jsonb NOT NULL,
	CONSTRAINT "turn_events_turn_id_seq_pk" PRIMARY KEY("turn_id","seq")
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"agent" text,
	"server" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"ended_at" timestamp with time zone,
	"stop_reason" text
);
--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "agent_server" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "agent_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "turn_events" ADD CONSTRAINT "turn_events_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "turns_running_thread" ON "turns" USING btree ("thread_id") WHERE "turns"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "turns_running_lease" ON "turns" USING btree ("lease_until") WHERE "turns"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "turns_ended" ON "turns" USING btree ("ended_at");