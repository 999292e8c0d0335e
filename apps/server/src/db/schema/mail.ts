import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every message the product sends; kept as the outbox when no SMTP server is configured. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sender: text('sender').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    html: text('html'),
    status: text('status', { enum: ['pending', 'sent', 'logged', 'failed'] }).notNull(),
    error: text('error'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [index('outbox_created_idx').on(table.created_at)],
);
