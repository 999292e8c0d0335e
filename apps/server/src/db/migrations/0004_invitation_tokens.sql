ALTER TABLE "store_invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
CREATE INDEX "store_invitations_token_idx" ON "store_invitations" USING btree ("token_hash");