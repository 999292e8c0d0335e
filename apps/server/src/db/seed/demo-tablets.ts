import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { verifyPassword } from '../../platform/auth/passwords';
import type { Database } from '../client';
import { employeeStores, employees, stores, users } from '../schema';
import { demoEmails } from './demo';
import { demoEmployeePin } from './demo-tasks';

/**
 * What `npm start` prints for trying the tablet app on the demo (issue 14): the tablet URL, the
 * pairing key of each demo store (read from the database: a key regenerated in the back-office
 * is the one printed), and the demo stores' employees with their PIN. Only employees whose PIN
 * is still the seed's are listed with it; an employee using a pattern is named as such (no
 * pattern is seeded). The demo stores are those of the demo distributor account's distributor.
 */
export async function demoTabletLines(db: Database, publicUrl: string): Promise<string[]> {
  const [distributor] = await db
    .select({ id: users.distributor_id })
    .from(users)
    .where(eq(users.email, demoEmails.distributor))
    .limit(1);
  if (!distributor?.id) return [];
  const storeRows = await db
    .select({ id: stores.id, name: stores.name, pairing_key: stores.pairing_key })
    .from(stores)
    .where(
      and(
        eq(stores.distributor_id, distributor.id),
        eq(stores.active, true),
        isNotNull(stores.pairing_key),
      ),
    )
    .orderBy(asc(stores.name));
  if (storeRows.length === 0) return [];
  const staff = await db
    .select({
      store_id: employeeStores.store_id,
      name: employees.name,
      surname: employees.surname,
      using_password: employees.using_password,
      pin_hash: employees.pin_hash,
      pattern_hash: employees.pattern_hash,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .where(
      and(
        inArray(
          employeeStores.store_id,
          storeRows.map((store) => store.id),
        ),
        eq(employees.active, true),
      ),
    )
    .orderBy(asc(employees.name), asc(employees.surname));
  // A PIN is checked once per distinct hash (the seed hashes the demo PIN once).
  const verdicts = new Map<string, Promise<boolean>>();
  const isDemoPin = (hash: string) => {
    let verdict = verdicts.get(hash);
    if (!verdict) {
      verdict = verifyPassword(hash, demoEmployeePin).catch(() => false);
      verdicts.set(hash, verdict);
    }
    return verdict;
  };
  const lines = [`Tablet app: ${publicUrl}/tablet/ (pair it with a store's key)`];
  for (const store of storeRows) {
    const withPin: string[] = [];
    const withPattern: string[] = [];
    for (const person of staff.filter((row) => row.store_id === store.id)) {
      const fullName = `${person.name} ${person.surname}`;
      if (!person.using_password && person.pattern_hash) withPattern.push(fullName);
      else if (person.pin_hash && (await isDemoPin(person.pin_hash))) withPin.push(fullName);
    }
    lines.push(`  ${store.name}: pairing key ${store.pairing_key}`);
    if (withPin.length) {
      lines.push(`    employees (PIN ${demoEmployeePin}): ${withPin.join(', ')}`);
    }
    if (withPattern.length) {
      lines.push(
        `    employees with a pattern (set in the back-office): ${withPattern.join(', ')}`,
      );
    }
  }
  return lines;
}
