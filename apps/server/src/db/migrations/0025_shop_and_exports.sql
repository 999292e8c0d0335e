CREATE TABLE "catalogue_copies" (
	"kind" text NOT NULL,
	"target_owner_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"copy_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"target_id" uuid NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "database_shop_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"origin_id" uuid,
	"active" boolean,
	"name" text,
	"description" text,
	"price" numeric(10, 2),
	"illustration_url" text,
	"illustration_path" text,
	"index" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "distributor_shop_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"distributor_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" numeric(10, 2),
	"illustration_url" text,
	"illustration_path" text,
	"index" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"distributor_id" uuid NOT NULL,
	"database_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"user_id" uuid,
	"employee_id" uuid,
	"device_id" uuid,
	"idempotency_key" text,
	"lines" jsonb NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"email_to" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_orders_total_positive" CHECK ("shop_orders"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "database_shop_items" ADD CONSTRAINT "database_shop_items_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "database_shop_items" ADD CONSTRAINT "database_shop_items_origin_id_distributor_shop_items_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."distributor_shop_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distributor_shop_items" ADD CONSTRAINT "distributor_shop_items_distributor_id_distributors_id_fk" FOREIGN KEY ("distributor_id") REFERENCES "public"."distributors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_distributor_id_distributors_id_fk" FOREIGN KEY ("distributor_id") REFERENCES "public"."distributors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "catalogue_copies_source_idx" ON "catalogue_copies" USING btree ("kind","target_owner_id","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalogue_exports_user_key_idx" ON "catalogue_exports" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "database_shop_items_database_idx" ON "database_shop_items" USING btree ("database_id","index");--> statement-breakpoint
CREATE UNIQUE INDEX "database_shop_items_origin_idx" ON "database_shop_items" USING btree ("database_id","origin_id");--> statement-breakpoint
CREATE INDEX "database_shop_items_origin_only_idx" ON "database_shop_items" USING btree ("origin_id");--> statement-breakpoint
CREATE INDEX "distributor_shop_items_distributor_idx" ON "distributor_shop_items" USING btree ("distributor_id","index");--> statement-breakpoint
CREATE INDEX "shop_orders_distributor_idx" ON "shop_orders" USING btree ("distributor_id","created_at");--> statement-breakpoint
CREATE INDEX "shop_orders_store_idx" ON "shop_orders" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_store_key_idx" ON "shop_orders" USING btree ("store_id","idempotency_key");