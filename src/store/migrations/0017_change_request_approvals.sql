CREATE TABLE "change_request_approvals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"change_request_id" uuid NOT NULL,
	"operator_id" uuid NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone,
	"dismissed_because" text
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "requester_may_approve" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "change_request_approvals" ADD CONSTRAINT "change_request_approvals_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_approvals" ADD CONSTRAINT "change_request_approvals_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "change_request_approvals_live" ON "change_request_approvals" USING btree ("change_request_id","operator_id") WHERE "change_request_approvals"."dismissed_at" is null;