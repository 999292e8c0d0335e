import { emailSchema } from '@mise/shared/auth/schemas';
import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { createAdmin } from '../modules/auth/auth.service';
import { AppError } from '../platform/errors';
import { readArgs } from './args';

/** npm run admin:create -- --email admin@example.com --password '…' [--name A --surname B] */
const args = readArgs(process.argv.slice(2));
const email = emailSchema.safeParse(args.email ?? '');
if (!email.success || !args.password) {
  console.error(
    'Usage: npm run admin:create -- --email <email> --password <password> [--name <first name>] [--surname <surname>]',
  );
  process.exit(2);
}
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  await runMigrations(database);
  const admin = await createAdmin(
    { db: database.db },
    {
      email: email.data,
      password: args.password,
      name: args.name,
      surname: args.surname,
    },
  );
  console.log(`Admin account created: ${admin.email}`);
} catch (error) {
  if (error instanceof AppError) {
    console.error(
      error.code === 'auth/weak-password'
        ? 'Password too weak: use at least 8 characters mixing letters with digits or symbols (or 12+ characters), not a common password.'
        : `Could not create the admin: ${error.message}`,
    );
    process.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await database.close();
}
