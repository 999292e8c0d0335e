import { type SQL, sql } from 'drizzle-orm';

/** One field of the bound store element as the catalogue resolves it (resolveInheritance). */
const inherited = (column: string) =>
  sql.raw(`case when de.id is null then se.${column}
      when (de.locks ->> '${column}')::boolean then de.${column}
      else coalesce(se.${column}, de.${column}) end`);

/**
 * The store element bound to a probe — its store's element whose probe_id is the probe's UID —
 * with its name and temperature range resolved as the catalogue does (a locked field or a null
 * store value takes the database element's; an origin outside the store's database counts as
 * none). A one-row subquery (name, minimum, maximum) for `left join lateral … on true` or for
 * a scalar read; the arguments are the probe's store id and UID in the caller's query.
 */
export function boundElementSql(storeId: SQL, probeUid: SQL): SQL {
  return sql`(select ${inherited('name')} as name,
      ${inherited('minimum_temperature')} as minimum,
      ${inherited('maximum_temperature')} as maximum
    from store_elements se
    join stores bound_store on bound_store.id = se.store_id
    left join database_elements de
      on de.id = se.origin_id and de.database_id = bound_store.database_id
    where se.store_id = ${storeId} and se.probe_id = ${probeUid}
    order by se.id
    limit 1)`;
}
