ALTER TABLE "threads" ADD COLUMN "agent" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "agent_session" text;