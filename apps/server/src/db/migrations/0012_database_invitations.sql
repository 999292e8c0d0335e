CREATE TABLE "database_invitations" (
	"database_id" uuid NOT NULL,
	"email" text NOT NULL,
	"invited_by" uuid,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "database_invitations_database_id_email_pk" PRIMARY KEY("database_id","email")
);
--> statement-breakpoint
ALTER TABLE "database_invitations" ADD CONSTRAINT "database_invitations_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "database_invitations" ADD CONSTRAINT "database_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "database_invitations_token_idx" ON "database_invitations" USING btree ("token_hash");