CREATE TABLE "assistant_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"thread_id" uuid NOT NULL,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"blocks" jsonb,
	"stop_reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parked_secrets" (
	"thread_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"sealed" text NOT NULL,
	CONSTRAINT "parked_secrets_thread_id_number_pk" PRIMARY KEY("thread_id","number")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"message_id" integer NOT NULL,
	"position" integer NOT NULL,
	"tool_use_id" text NOT NULL,
	"tool" text NOT NULL,
	"input" jsonb NOT NULL,
	"project" text,
	"environment" text NOT NULL,
	"permission" text NOT NULL,
	"tag" text NOT NULL,
	"title" text NOT NULL,
	"rows" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" jsonb,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"project" text,
	"environment" text NOT NULL,
	"page" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"turn_started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assistant_sends" ADD CONSTRAINT "assistant_sends_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parked_secrets" ADD CONSTRAINT "parked_secrets_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_sends_operator_at" ON "assistant_sends" USING btree ("operator_id","at");--> statement-breakpoint
CREATE INDEX "messages_thread" ON "messages" USING btree ("thread_id","id");--> statement-breakpoint
CREATE INDEX "proposals_thread" ON "proposals" USING btree ("thread_id","message_id","position");--> statement-breakpoint
CREATE INDEX "threads_operator_updated" ON "threads" USING btree ("operator_id","updated_at");