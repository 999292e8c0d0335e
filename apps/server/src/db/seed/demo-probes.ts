import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { registerProviderProbes } from '../../modules/probes/probes.service';
import { pullProviderReadings } from '../../modules/sensors/sensors.service';
import {
  createLocalSensorProvider,
  localSensorPassword,
} from '../../platform/integrations/sensor-provider';
import type { Database } from '../client';
import { probes, sensorCredentials, stores } from '../schema';

/**
 * The demo's probes (issue 15): the Paris store is connected to the sensor provider's offline
 * implementation and has its tags as probes, with a day of simulated readings: a fridge, the
 * cold room (its battery drains), the walk-in (fails every 8 hours) and a second freezer probe
 * whose compressor started failing an hour before the demo was made, so binding it to the
 * "Congélateur" element shows an alert at once. The pull job keeps them fed every minute.
 */
export async function seedDemoProbes(db: Database, now: Date): Promise<void> {
  const [paris] = await db
    .select({ id: stores.id })
    .from(stores)
    .where(eq(stores.name, 'Bistro Paris Opéra'))
    .limit(1);
  if (!paris) return;
  await db
    .insert(sensorCredentials)
    .values({
      store_id: paris.id,
      account: 'cuisine@bistro-paris.test',
      password_hash: createHash('sha256').update(localSensorPassword).digest('hex'),
    })
    .onConflictDoNothing();
  const failingSince = Math.floor(now.getTime() / 1000) - 60 * 60;
  await registerProviderProbes(db, paris.id, [
    { probeUid: 'koovea-tag-fridge-1', name: 'Frigo 1', providerTagId: 'tag-fridge-1' },
    { probeUid: 'koovea-tag-cold-room', name: 'Chambre froide', providerTagId: 'tag-cold-room' },
    {
      probeUid: 'koovea-tag-walk-in',
      name: 'Chambre froide positive',
      providerTagId: 'tag-walk-in',
    },
    {
      probeUid: 'koovea-tag-freezer',
      name: 'Congélateur (sonde)',
      providerTagId: `tag-freezer:failing:${failingSince}`,
    },
  ]);
  // The walk-in's own range, so its failures alert even before anyone binds it.
  await db
    .update(probes)
    .set({ minimum_temperature: 0, maximum_temperature: 4, push_notification: true })
    .where(eq(probes.probe_uid, 'koovea-tag-walk-in'));
  await db
    .update(probes)
    .set({ push_notification: true })
    .where(eq(probes.probe_uid, 'koovea-tag-freezer'));
  await pullProviderReadings(db, createLocalSensorProvider(), now);
}
