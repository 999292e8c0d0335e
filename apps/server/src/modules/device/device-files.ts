import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { employeeStores, stores } from '../../db/schema';
import { isResultOfStore } from '../audits/audit-results.service';
import type { DeviceFileAccess } from '../files/files.routes';

/**
 * What a paired tablet may read under /api/files (issue 14): the files of its store
 * (`stores/<its store>/…`: store elements' pictures and attachments, task pictures), of its
 * store's database (`databases/<database>/…`: database elements' pictures and attachments,
 * the screen saver) and of the employees of its store (`employees/<employee>/…`: their
 * pictures), its store's audit results' files (`audit-results/<result>/…`), global trainings'
 * files (`trainings/…`) and its distributor's (`distributors/<distributor>/…`). Anything else
 * answers 404, as for a user outside the scope.
 */
export const deviceFileAccess: DeviceFileAccess = async (db: Database, device, area, ownerId) => {
  if (area === 'stores') return ownerId === device.storeId;
  if (area === 'databases') {
    const [store] = await db
      .select({ database_id: stores.database_id })
      .from(stores)
      .where(eq(stores.id, device.storeId))
      .limit(1);
    return store?.database_id === ownerId;
  }
  if (area === 'employees') {
    const [link] = await db
      .select({ id: employeeStores.employee_id })
      .from(employeeStores)
      .where(
        and(eq(employeeStores.employee_id, ownerId), eq(employeeStores.store_id, device.storeId)),
      )
      .limit(1);
    return link !== undefined;
  }
  if (area === 'audit-results') return isResultOfStore(db, ownerId, device.storeId);
  // Training attachments: global ones (`trainings/…`) and those of its store's distributor.
  if (area === 'trainings') return true;
  if (area === 'distributors') {
    const [store] = await db
      .select({ distributor_id: stores.distributor_id })
      .from(stores)
      .where(eq(stores.id, device.storeId))
      .limit(1);
    return store?.distributor_id === ownerId;
  }
  return false;
};
