import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashEmployeeSecret } from '../../modules/device/employees.service';
import { useTestApp } from '../../test/harness';
import { devices, employees, stores, users } from '../schema';
import { demoEmails, seedDemo } from './demo';
import { demoTabletLines } from './demo-tablets';

const context = useTestApp();

describe('the demo tablet lines npm start prints', () => {
  it("gives the tablet URL, each demo store's pairing key from the database and its employees' PIN", async () => {
    expect(await demoTabletLines(context.db, 'http://localhost:3000')).toEqual([]);
    await seedDemo(context.db);
    const paris = (
      await context.db.select().from(stores).where(eq(stores.name, 'Bistro Paris Opéra'))
    )[0]!;
    await context.db.update(stores).set({ pairing_key: 'NEWKEY42' }).where(eq(stores.id, paris.id));
    // An employee whose PIN was changed is not listed with the demo PIN.
    await context.db
      .update(employees)
      .set({ pin_hash: await hashEmployeeSecret('9876') })
      .where(eq(employees.name, 'Emma'));

    const lines = await demoTabletLines(context.db, 'http://localhost:3000');
    const text = lines.join('\n');
    expect(lines[0]).toBe("Tablet app: http://localhost:3000/tablet/ (pair it with a store's key)");
    expect(text).toContain('  Bistro Paris Opéra: pairing key NEWKEY42');
    expect(text).toContain('    employees (PIN 1234): Hugo Petit, Lucas Martin');
    expect(text).not.toContain('Emma');
    const lyon = (
      await context.db.select().from(stores).where(eq(stores.name, 'Bistro Lyon Bellecour'))
    )[0]!;
    expect(text).toContain(`  Bistro Lyon Bellecour: pairing key ${lyon.pairing_key}`);
    expect(text).toContain('Chloé Durand');
    // Another distributor's store is not a demo store of the demo distributor.
    expect(text).not.toContain('Canteen Bruxelles');
  });

  it("links the demo Paris tablet to the store's owner", async () => {
    const [customer] = await context.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmails.customer));
    const [tablet] = await context.db
      .select()
      .from(devices)
      .where(and(eq(devices.device_id, 'demo-tablet-paris')));
    expect(tablet!.linked_user).toBe(customer!.id);
  });
});
