import { and, eq } from 'drizzle-orm';
import { newPairingKey } from '../../modules/stores/pairing-key';
import { hashPassword } from '../../platform/auth/passwords';
import { hashToken, newToken } from '../../platform/auth/tokens';
import type { Storage } from '../../platform/storage';
import type { Database } from '../client';
import {
  databaseManagers,
  databases,
  devices,
  distributors,
  storeOwners,
  stores,
  users,
} from '../schema';
import { seedDemoAudits } from './demo-audits';
import { seedDemoCatalogue } from './demo-catalogue';
import { seedDemoCommunications } from './demo-communications';
import { seedDemoPeople } from './demo-people';
import { seedDemoProbes } from './demo-probes';
import { demoHistoryDays, seedDemoTasks } from './demo-tasks';

/** The licence history of a licensed demo store: activated on the 1st, two months ago (UTC). */
function demoLicenceHistory(now = new Date()) {
  const activatedOn = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return [{ timestamp: activatedOn.toISOString(), activated: true }];
}

/**
 * When the demo stores opened: before their licence and before the first day of their task
 * history (generation makes no task scheduled before a store's creation).
 */
function demoOpenedAt(now = new Date()) {
  const activatedOn = new Date(demoLicenceHistory(now)[0]!.timestamp);
  const historyStart = new Date(now.getTime() - (demoHistoryDays + 2) * 86_400_000);
  return activatedOn < historyStart ? activatedOn : historyStart;
}

export const demoPassword = 'demo1234';

export const demoEmails = {
  admin: 'admin@demo.test',
  distributor: 'distributor@demo.test',
  manager: 'manager@demo.test',
  customer: 'customer@demo.test',
} as const;

/**
 * The demo organisation: two distributors; the demo distributor owns one database with
 * three stores; the other distributor has a database and store of its own, which only the
 * admin sees. The manager manages the demo database; the customer owns two of its stores. The
 * demo database carries a small catalogue (types, elements, labels, one store override). With a
 * storage, also communications and trainings with their PDF attachments (without one, as in tests
 * that need no files, they are left out).
 * Idempotent: does nothing when the demo admin exists.
 */
export async function seedDemo(
  db: Database,
  storage?: Storage,
): Promise<{ emails: string[]; isCreated: boolean }> {
  const emails = Object.values(demoEmails);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, demoEmails.admin));
  if (existing) return { emails, isCreated: false };

  const passwordHashes = await Promise.all(emails.map(() => hashPassword(demoPassword)));
  await db.transaction(async (tx) => {
    const [demoDistributor, otherDistributor] = await tx
      .insert(distributors)
      .values([
        {
          name: 'Mise Distribution France',
          address: '12 rue de la Paix',
          postal_code: '75002',
          city: 'Paris',
          countries: ['FR'],
          email: 'contact@demo.test',
        },
        {
          name: 'Nordic Food Systems',
          address: 'Rue Neuve 1',
          postal_code: '1000',
          city: 'Bruxelles',
          countries: ['BE'],
          email: 'contact@nordic.test',
        },
      ])
      .returning();
    const [demoDatabase, otherDatabase] = await tx
      .insert(databases)
      .values([
        { name: 'Bistro Group', distributor_id: demoDistributor!.id, store_access: true },
        { name: 'Nordic Canteens', distributor_id: otherDistributor!.id },
      ])
      .returning();
    const demoStores = await tx
      .insert(stores)
      .values(
        [
          {
            name: 'Bistro Paris Opéra',
            address: '5 place de l’Opéra',
            postal_code: '75009',
            city: 'Paris',
            distributor_id: demoDistributor!.id,
            database_id: demoDatabase!.id,
            mise_licence: true,
            licence_activation_history: demoLicenceHistory(),
          },
          {
            name: 'Bistro Lyon Bellecour',
            address: '2 place Bellecour',
            postal_code: '69002',
            city: 'Lyon',
            distributor_id: demoDistributor!.id,
            database_id: demoDatabase!.id,
            mise_licence: true,
            licence_activation_history: demoLicenceHistory(),
          },
          {
            name: 'Bistro Lille Centre',
            address: '10 rue Faidherbe',
            postal_code: '59000',
            city: 'Lille',
            distributor_id: demoDistributor!.id,
            database_id: demoDatabase!.id,
            manager_owned: true,
          },
          {
            name: 'Canteen Bruxelles',
            address: 'Rue Neuve 20',
            postal_code: '1000',
            city: 'Bruxelles',
            country: 'BE',
            timezone_name: 'Europe/Brussels',
            distributor_id: otherDistributor!.id,
            database_id: otherDatabase!.id,
            mise_licence: true,
            licence_activation_history: demoLicenceHistory(),
          },
        ].map((store) => ({ ...store, created_at: demoOpenedAt() })),
      )
      .returning();
    await seedDemoCatalogue(tx, demoDatabase!.id, demoStores[0]!.id);
    await seedDemoTasks(tx as unknown as Database, demoDatabase!.id, demoStores.slice(0, 3));
    await seedDemoPeople(tx as unknown as Database, demoDatabase!.id, demoStores.slice(0, 3));
    // Room for the tablets someone trying the demo pairs, beside the seeded one.
    for (const store of demoStores) {
      await tx
        .update(stores)
        .set({ pairing_key: newPairingKey(), maximum_devices: 3 })
        .where(eq(stores.id, store.id));
    }
    // One paired tablet on the Paris store; its token is not kept (nobody signs in with it).
    await tx.insert(devices).values({
      store_id: demoStores[0]!.id,
      device_id: 'demo-tablet-paris',
      device_model: 'Galaxy Tab A8',
      name: 'Tablette cuisine',
      app_version: '1.0.0',
      os_version: 'Android 14',
      token_hash: hashToken(newToken()),
      last_connexion: new Date(),
    });
    const [, , manager, customer] = await tx
      .insert(users)
      .values([
        {
          email: demoEmails.admin,
          password_hash: passwordHashes[0]!,
          role: 'admin',
          name: 'Alice',
          surname: 'Admin',
          phone_number: '+33 1 00 00 00 01',
        },
        {
          email: demoEmails.distributor,
          password_hash: passwordHashes[1]!,
          role: 'distributor',
          name: 'Denis',
          surname: 'Distributeur',
          phone_number: '+33 1 00 00 00 02',
          distributor_id: demoDistributor!.id,
        },
        {
          email: demoEmails.manager,
          password_hash: passwordHashes[2]!,
          role: 'manager',
          name: 'Manon',
          surname: 'Manager',
          phone_number: '+33 1 00 00 00 03',
          database_id: demoDatabase!.id,
        },
        {
          email: demoEmails.customer,
          password_hash: passwordHashes[3]!,
          role: 'customer',
          name: 'Camille',
          surname: 'Client',
          phone_number: '+33 1 00 00 00 04',
        },
      ])
      .returning();
    await tx
      .insert(databaseManagers)
      .values({ database_id: demoDatabase!.id, user_id: manager!.id });
    await tx.insert(storeOwners).values([
      { store_id: demoStores[0]!.id, user_id: customer!.id },
      { store_id: demoStores[1]!.id, user_id: customer!.id },
    ]);
    // The Paris tablet opens the back-office as the store's owner (as pairing would set it).
    await tx
      .update(devices)
      .set({ linked_user: customer!.id })
      .where(
        and(eq(devices.store_id, demoStores[0]!.id), eq(devices.device_id, 'demo-tablet-paris')),
      );
  });
  await seedDemoProbes(db, new Date());
  await seedDemoAudits(db, demoEmails.manager, new Date());
  if (storage) await seedDemoCommunications(db, storage, demoEmails.manager, new Date());
  return { emails, isCreated: true };
}
