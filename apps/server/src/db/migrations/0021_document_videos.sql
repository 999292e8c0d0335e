ALTER TABLE "documents" ADD COLUMN "video_id" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "video_url" text;