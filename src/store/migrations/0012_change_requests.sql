CREATE TABLE "change_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"environment_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"input" jsonb NOT NULL,
	"sealed" text,
	"permission" text NOT NULL,
	"rows" jsonb NOT NULL,
	"requester_id" uuid NOT NULL,
	"via" text NOT NULL,
	"reason" text,
	"thread_id" uuid,
	"proposal_id" uuid,
	"change" jsonb NOT NULL,
	"verdict" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"decider_id" uuid,
	"comment" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "approvals_required" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "change_request_id" uuid;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_requester_id_operators_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_decider_id_operators_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."operators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_requests_project" ON "change_requests" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "change_requests_requester" ON "change_requests" USING btree ("requester_id","created_at");--> statement-breakpoint
CREATE INDEX "change_requests_pending" ON "change_requests" USING btree ("expires_at") WHERE "change_requests"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE set null ON UPDATE no action;