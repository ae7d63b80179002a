CREATE TABLE "instance_facts" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
