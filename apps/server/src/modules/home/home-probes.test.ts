import { dayInZone } from '@mise/shared/tasks/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildStore,
  buildStoreElement,
  buildTask,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { noonZone } from '../../test/zones';
import { buildProbe } from '../elements/test-support';

/**
 * The home's equipment panel with probes (issue 15): an element bound to one of its store's
 * probes shows the probe's last reading and state beside the day's manual state; a probe out
 * of the element's bounds or silent for 2 hours makes the row an anomaly of the day; another
 * store's probe never counts.
 */

const context = useTestApp();
const zone = noonZone();
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

let customer: Agent;
let storeId: string;
let walkIn: Awaited<ReturnType<typeof buildDatabaseElement>>;
let plainFridge: Awaited<ReturnType<typeof buildDatabaseElement>>;
let showcaseId: string;
let saladetteId: string;
let deliveryId: string;

const snapshot = (element: { id: string; name: string }) => ({
  id: element.id,
  name: element.name,
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: 25,
  reheating_temperature: null,
  cooling_temperature: null,
});
const reading = (element: string, temperature: number) => ({
  element,
  temperature,
  first_temperature: temperature,
  control_temperature: null,
  comment: '',
  pictures: [],
  timestamp: 0,
});

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  const store = await buildStore(db, {
    distributor_id: distributor.id,
    database_id: database.id,
    timezone_name: zone,
    mise_licence: true,
  });
  const otherTenantStore = await buildStore(db, {
    distributor_id: (await buildDistributor(db)).id,
    timezone_name: zone,
  });
  storeId = store.id;

  walkIn = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Chambre froide',
    minimum_temperature: 0,
    maximum_temperature: 4,
  });
  plainFridge = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Frigo sans sonde',
    minimum_temperature: 0,
    maximum_temperature: 4,
  });

  // The walk-in's override follows the database's bounds (0–4); its probe reads 7 °C.
  const walkInProbe = await buildProbe(db, {
    store_id: storeId,
    name: 'Sonde chambre',
    last_temperature: 7,
    last_temperature_timestamp: minutesAgo(10),
  });
  await buildStoreElement(db, {
    store_id: storeId,
    origin_id: walkIn.id,
    probe_id: walkInProbe.probe_uid,
  });
  // A showcase of the store's own whose probe has been silent for 3 hours.
  const silentProbe = await buildProbe(db, {
    store_id: storeId,
    name: 'Sonde vitrine',
    last_temperature: 2,
    last_temperature_timestamp: minutesAgo(180),
  });
  showcaseId = (
    await buildStoreElement(db, {
      store_id: storeId,
      name: 'Vitrine',
      minimum_temperature: 0,
      maximum_temperature: 4,
      probe_id: silentProbe.probe_uid,
    })
  ).id;
  // A saladette whose probe reads inside its own bounds, 5 minutes ago.
  const saladetteProbe = await buildProbe(db, {
    store_id: storeId,
    name: 'Sonde saladette',
    last_temperature: 3,
    last_temperature_timestamp: minutesAgo(5),
  });
  saladetteId = (
    await buildStoreElement(db, {
      store_id: storeId,
      name: 'Saladette',
      minimum_temperature: 0,
      maximum_temperature: 4,
      probe_id: saladetteProbe.probe_uid,
    })
  ).id;
  // A delivery item with a probe goes to the delivery tab.
  const deliveryProbe = await buildProbe(db, {
    store_id: storeId,
    name: 'Sonde quai',
    last_temperature: 1,
    last_temperature_timestamp: minutesAgo(1),
  });
  deliveryId = (
    await buildStoreElement(db, {
      store_id: storeId,
      name: 'Quai de livraison',
      temperature_delivery_item: true,
      probe_id: deliveryProbe.probe_uid,
    })
  ).id;
  // Not on the panel: bound to another tenant's probe, and an inactive element.
  const foreignProbe = await buildProbe(db, {
    store_id: otherTenantStore.id,
    last_temperature: 30,
    last_temperature_timestamp: minutesAgo(1),
  });
  await buildStoreElement(db, {
    store_id: storeId,
    name: 'Fantôme',
    probe_id: foreignProbe.probe_uid,
  });
  await buildStoreElement(db, {
    store_id: storeId,
    name: 'Ancien frigo',
    active: false,
    probe_id: (
      await buildProbe(db, {
        store_id: storeId,
        last_temperature: 20,
        last_temperature_timestamp: minutesAgo(1),
      })
    ).probe_uid,
  });

  // Today's manual round read the walk-in (by its database id, as snapshots do) in range.
  await buildTask(db, {
    store_id: storeId,
    day: dayInZone(new Date(), zone),
    name: 'Relevé',
    start: minutesAgo(60),
    duration: 60,
    elements: [snapshot(walkIn), snapshot(plainFridge)],
    completed_timestamp: minutesAgo(30),
    employee: { name: 'Hugo', surname: 'Petit' },
    result: { entries: [reading(walkIn.id, 3), reading(plainFridge.id, 2)] },
  });

  const owner = await buildUser(db, { role: 'customer', ownedStoreIds: [storeId] });
  customer = await signIn(context.app, owner.email, testPassword);
});

type Row = {
  id: string;
  name: string;
  state: string;
  probe: { name: string; last_temperature: number | null; state: string } | null;
  has_anomaly: boolean;
};

describe('equipment panel with probes', () => {
  it("shows each bound element's probe reading and state beside the manual state", async () => {
    const response = await customer.inject({ url: `/api/stores/${storeId}/home` });
    expect(response.statusCode).toBe(200);
    const { fridges, delivery } = response.json().equipment as {
      fridges: Row[];
      delivery: Row[];
    };
    const summary = (rows: Row[]) =>
      rows.map((row) => ({
        name: row.name,
        state: row.state,
        probe: row.probe && {
          name: row.probe.name,
          temperature: row.probe.last_temperature,
          state: row.probe.state,
        },
        has_anomaly: row.has_anomaly,
      }));
    expect(summary(fridges)).toEqual([
      // Read in range by hand, but its probe reads 7 °C against 0–4 inherited from the database.
      {
        name: 'Chambre froide',
        state: 'in-range',
        probe: { name: 'Sonde chambre', temperature: 7, state: 'out-of-range' },
        has_anomaly: true,
      },
      { name: 'Frigo sans sonde', state: 'in-range', probe: null, has_anomaly: false },
      {
        name: 'Saladette',
        state: 'no-data',
        probe: { name: 'Sonde saladette', temperature: 3, state: 'in-range' },
        has_anomaly: false,
      },
      // Last heard 3 hours ago: not working (2 hours or more), an anomaly.
      {
        name: 'Vitrine',
        state: 'no-data',
        probe: { name: 'Sonde vitrine', temperature: 2, state: 'not-working' },
        has_anomaly: true,
      },
    ]);
    expect(fridges.find((row) => row.name === 'Chambre froide')?.id).toBe(walkIn.id);
    expect(fridges.find((row) => row.name === 'Vitrine')?.id).toBe(showcaseId);
    expect(fridges.find((row) => row.name === 'Saladette')?.id).toBe(saladetteId);
    expect(summary(delivery)).toEqual([
      {
        name: 'Quai de livraison',
        state: 'no-data',
        probe: { name: 'Sonde quai', temperature: 1, state: 'in-range' },
        has_anomaly: false,
      },
    ]);
    expect(delivery[0]?.id).toBe(deliveryId);
  });
});
