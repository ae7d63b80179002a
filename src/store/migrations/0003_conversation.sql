CREATE TABLE "thread_contexts" (
	"thread_id" uuid PRIMARY KEY NOT NULL,
	"shared" boolean NOT NULL,
	"url" text,
	"concepts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"document_path" text,
	"document_text" text,
	"selection" jsonb,
	"cursor" jsonb,
	"revision" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "thread_contexts" ADD CONSTRAINT "thread_contexts_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;