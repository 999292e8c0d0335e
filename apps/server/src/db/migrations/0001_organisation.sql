CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"device_model" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"app_version" text DEFAULT '' NOT NULL,
	"os_version" text DEFAULT '' NOT NULL,
	"token_hash" text NOT NULL,
	"linked_user" uuid,
	"calendar_types_order" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dark_mode" boolean DEFAULT false NOT NULL,
	"slow_internet_mode" boolean DEFAULT false NOT NULL,
	"audio_task_reminders" boolean DEFAULT false NOT NULL,
	"show_unscheduled_tasks" boolean DEFAULT false NOT NULL,
	"rotation_lock" boolean DEFAULT false NOT NULL,
	"prevent_screen_lock" boolean DEFAULT true NOT NULL,
	"creation_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"last_connexion" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "devices_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sensor_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"distributor_id" uuid,
	"store_id" uuid,
	"account" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_invitations" (
	"store_id" uuid NOT NULL,
	"email" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_invitations_store_id_email_pk" PRIMARY KEY("store_id","email")
);
--> statement-breakpoint
ALTER TABLE "distributors" ADD COLUMN "contacts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_credentials" ADD CONSTRAINT "sensor_credentials_distributor_id_distributors_id_fk" FOREIGN KEY ("distributor_id") REFERENCES "public"."distributors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_credentials" ADD CONSTRAINT "sensor_credentials_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_invitations" ADD CONSTRAINT "store_invitations_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_invitations" ADD CONSTRAINT "store_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_store_idx" ON "devices" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_store_device_idx" ON "devices" USING btree ("store_id","device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sensor_credentials_distributor_idx" ON "sensor_credentials" USING btree ("distributor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sensor_credentials_store_idx" ON "sensor_credentials" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "store_invitations_email_idx" ON "store_invitations" USING btree ("email");