CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator" text,
	"via" text NOT NULL,
	"tool" text NOT NULL,
	"project" text,
	"environment" text,
	"thread_id" uuid,
	"proposal_id" uuid,
	"outcome" text NOT NULL,
	"input" jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"path" text NOT NULL,
	"revision" integer NOT NULL,
	"operator_id" uuid,
	"via" text NOT NULL,
	"rollback" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"path" text NOT NULL,
	"current_revision" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_documents" (
	"environment_id" uuid NOT NULL,
	"path" text NOT NULL,
	"document_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"deployment_number" integer NOT NULL,
	"deployed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_documents_environment_id_path_pk" PRIMARY KEY("environment_id","path")
);
--> statement-breakpoint
CREATE TABLE "revisions" (
	"document_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"text" text NOT NULL,
	"sha256" text NOT NULL,
	"author_id" uuid,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "revisions_document_id_number_pk" PRIMARY KEY("document_id","number")
);
--> statement-breakpoint
CREATE TABLE "secrets" (
	"environment_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sealed" text NOT NULL,
	"version" integer NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "secrets_environment_id_name_pk" PRIMARY KEY("environment_id","name")
);
--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_documents" ADD CONSTRAINT "live_documents_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_documents" ADD CONSTRAINT "live_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_author_id_operators_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."operators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_updated_by_operators_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."operators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_project_id" ON "audit_entries" USING btree ("project","id");--> statement-breakpoint
CREATE INDEX "audit_tool_id" ON "audit_entries" USING btree ("tool","id");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_environment_number" ON "deployments" USING btree ("environment_id","number");--> statement-breakpoint
CREATE INDEX "deployments_environment_path" ON "deployments" USING btree ("environment_id","path","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_project_path" ON "documents" USING btree ("project_id","path");--> statement-breakpoint
CREATE INDEX "live_documents_document" ON "live_documents" USING btree ("document_id");