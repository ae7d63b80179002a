CREATE TABLE "agent_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"turn_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"message" text NOT NULL,
	"fields" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answer" jsonb,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_usage" (
	"id" serial PRIMARY KEY NOT NULL,
	"thread_id" uuid,
	"message_id" integer,
	"agent" text NOT NULL,
	"session" text NOT NULL,
	"input_tokens" integer,
	"output_tokens" integer,
	"thought_tokens" integer,
	"cache_read_tokens" integer,
	"cache_write_tokens" integer,
	"context_used" integer,
	"context_size" integer,
	"cost" double precision,
	"session_cost" double precision,
	"currency" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "agent_options" jsonb;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "agent_choices" jsonb;--> statement-breakpoint
ALTER TABLE "agent_questions" ADD CONSTRAINT "agent_questions_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_usage" ADD CONSTRAINT "agent_usage_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_questions_thread" ON "agent_questions" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "agent_usage_thread" ON "agent_usage" USING btree ("thread_id","session");