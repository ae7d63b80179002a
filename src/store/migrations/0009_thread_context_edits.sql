CREATE TABLE "thread_context_edits" (
	"thread_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"replacements" jsonb NOT NULL,
	CONSTRAINT "thread_context_edits_thread_id_revision_pk" PRIMARY KEY("thread_id","revision")
);
--> statement-breakpoint
ALTER TABLE "thread_contexts" ADD COLUMN "edit_log_batches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "thread_contexts" ADD COLUMN "edit_log_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "thread_context_edits" ADD CONSTRAINT "thread_context_edits_thread_id_thread_contexts_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."thread_contexts"("thread_id") ON DELETE cascade ON UPDATE no action;