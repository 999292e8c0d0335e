import { useQuery } from '@tanstack/react-query';
import { employeeRolesQueryOptions } from '../../employee-roles/api/get-employee-roles';
import { storeTagsQueryOptions } from '../../store-tags/api/get-store-tags';

/*
 * What a communication may aim at, read through the app's existing calls (shared cache with
 * the database screen's Tags and Roles tabs): GET /api/databases/:id/storeTags answers the
 * database's tags and its stores (those the caller sees), GET /api/databases/:id/employeeRoles
 * its employee roles.
 */

export function useTargetStoresAndTags(databaseId: string) {
  return useQuery({ ...storeTagsQueryOptions(databaseId), enabled: Boolean(databaseId) });
}

export function useTargetRoles(databaseId: string) {
  return useQuery({ ...employeeRolesQueryOptions(databaseId), enabled: Boolean(databaseId) });
}
