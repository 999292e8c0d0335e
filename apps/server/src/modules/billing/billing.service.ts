import { billStore, roundCents } from '@mise/shared/billing/rules';
import {
  type BillingSummary,
  type BillingSummaryBody,
  maxBillingPeriodDays,
} from '@mise/shared/billing/schemas';
import { effectiveLicencePrice } from '@mise/shared/organisation/rules';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, distributors, stores } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';

type BilledStore = BillingSummary['billedStores'][string][number];

/**
 * POST /api/billing/summary (admins): every active distributor, or the one asked for; their
 * active stores and the inactive ones licensed during the period; each billed with the shared
 * pricing model (billStore) at its effective licence price. Three queries in all.
 */
export async function billingSummary(
  db: Database,
  scope: Scope,
  body: BillingSummaryBody,
): Promise<BillingSummary> {
  if (scope.role !== 'admin') throw forbidden();
  const periodDays = (Date.parse(body.period.end) - Date.parse(body.period.start)) / 86_400_000;
  if (periodDays > maxBillingPeriodDays) throw new AppError('date-range-too-long');
  const distributorRows = await db
    .select({
      id: distributors.id,
      name: distributors.name,
      billing_cycle: distributors.billing_cycle,
      licence_price: distributors.licence_price,
    })
    .from(distributors)
    .where(
      body.distributorId ? eq(distributors.id, body.distributorId) : eq(distributors.active, true),
    )
    .orderBy(asc(distributors.name), asc(distributors.id));
  if (body.distributorId && distributorRows.length === 0) throw notFound();
  const storeRows = distributorRows.length
    ? await db
        .select({
          id: stores.id,
          name: stores.name,
          active: stores.active,
          distributor_id: stores.distributor_id,
          mise_licence: stores.mise_licence,
          licence_price: stores.licence_price,
          maximum_devices: stores.maximum_devices,
          licence_activation_history: stores.licence_activation_history,
          created_at: stores.created_at,
          database_licence_price: databases.licence_price,
        })
        .from(stores)
        .leftJoin(databases, eq(databases.id, stores.database_id))
        .where(
          inArray(
            stores.distributor_id,
            distributorRows.map((row) => row.id),
          ),
        )
        .orderBy(asc(stores.name), asc(stores.id))
    : [];

  const billedStores: BillingSummary['billedStores'] = {};
  const summaries: BillingSummary['distributors'] = [];
  let total = 0;
  const storesByDistributor = new Map<string | null, typeof storeRows>();
  for (const store of storeRows) {
    const group = storesByDistributor.get(store.distributor_id) ?? [];
    group.push(store);
    storesByDistributor.set(store.distributor_id, group);
  }
  for (const distributor of distributorRows) {
    const billed: BilledStore[] = [];
    for (const store of storesByDistributor.get(distributor.id) ?? []) {
      const licencePrice = effectiveLicencePrice({
        store: store.licence_price,
        database: store.database_licence_price,
        distributor: distributor.licence_price,
      });
      const bill = billStore({
        monthlyPrice: licencePrice,
        maximumDevices: store.maximum_devices,
        cycleMonths: distributor.billing_cycle,
        events: store.licence_activation_history,
        isLicensed: store.mise_licence,
        createdAt: store.created_at.toISOString(),
        period: body.period,
      });
      if (!store.active && bill.licensedDays === 0) continue;
      if (bill.cost <= 0) continue;
      billed.push({
        id: store.id,
        name: store.name,
        cost: bill.cost,
        maximumDevices: store.maximum_devices,
        licencePrice,
        billedMonths: bill.billedMonths,
        licensedDays: bill.licensedDays,
      });
    }
    const cost = roundCents(billed.reduce((sum, store) => sum + store.cost, 0));
    summaries.push({
      id: distributor.id,
      name: distributor.name,
      billing_cycle: distributor.billing_cycle,
      cost,
    });
    if (billed.length) {
      // Two distributors with the same name share a group rather than hiding one another.
      billedStores[distributor.name] = [...(billedStores[distributor.name] ?? []), ...billed];
    }
    total += cost;
  }
  return { billedStores, distributors: summaries, total: roundCents(total) };
}
