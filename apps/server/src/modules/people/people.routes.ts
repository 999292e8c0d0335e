import { randomBytes } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import {
  employeeResponseSchema,
  employeeRolesResponseSchema,
  employeeSecretBodySchema,
  employeesResponseSchema,
  listEmployeesQuerySchema,
  saveEmployeeRolesBodySchema,
  saveEmployeesBodySchema,
  saveStoreTagsBodySchema,
  storeTagsResponseSchema,
} from '@mise/shared/people/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { readImageUpload } from '../files/uploads';
import * as employees from './employees.service';
import * as roles from './roles.service';
import * as tags from './tags.service';

const databaseParams = z.strictObject({ databaseId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });
const employeeParams = z.strictObject({ storeId: idSchema, employeeId: idSchema });

/** Employee roles and store tags of a database, employees of a store (spec 001 §2.2, §2.4, §2.11). */
export const peopleRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/databases/:databaseId/employeeRoles',
    {
      schema: {
        tags: ['employee-roles'],
        params: databaseParams,
        response: { 200: employeeRolesResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return roles.getRoles(db, scope, request.params.databaseId);
    },
  );

  app.put(
    '/databases/:databaseId/employeeRoles',
    {
      schema: {
        tags: ['employee-roles'],
        params: databaseParams,
        body: saveEmployeeRolesBodySchema,
        response: { 200: employeeRolesResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return roles.saveRoles(db, scope, request.params.databaseId, request.body);
    },
  );

  app.get(
    '/databases/:databaseId/storeTags',
    {
      schema: {
        tags: ['store-tags'],
        params: databaseParams,
        response: { 200: storeTagsResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return tags.getTags(db, scope, request.params.databaseId);
    },
  );

  app.put(
    '/databases/:databaseId/storeTags',
    {
      schema: {
        tags: ['store-tags'],
        params: databaseParams,
        body: saveStoreTagsBodySchema,
        response: { 200: storeTagsResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return tags.saveTags(db, scope, request.params.databaseId, request.body);
    },
  );

  app.get(
    '/stores/:storeId/employees',
    {
      schema: {
        tags: ['employees'],
        params: storeParams,
        querystring: listEmployeesQuerySchema,
        response: { 200: employeesResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return employees.listEmployees(db, scope, request.params.storeId, request.query);
    },
  );

  app.put(
    '/stores/:storeId/employees',
    {
      schema: {
        tags: ['employees'],
        params: storeParams,
        querystring: listEmployeesQuerySchema,
        body: saveEmployeesBodySchema,
        response: { 200: employeesResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return employees.saveEmployees(
        db,
        scope,
        request.params.storeId,
        request.body,
        request.query,
      );
    },
  );

  app.put(
    '/stores/:storeId/employees/:employeeId/secret',
    {
      schema: {
        tags: ['employees'],
        params: employeeParams,
        body: employeeSecretBodySchema,
        response: { 200: employeeResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const { storeId, employeeId } = request.params;
      return employees.setEmployeeSecret(db, scope, storeId, employeeId, request.body);
    },
  );

  app.post(
    '/stores/:storeId/employees/:employeeId/illustration',
    {
      schema: {
        tags: ['employees'],
        params: employeeParams,
        consumes: ['multipart/form-data'],
        response: { 200: employeeResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const { storeId, employeeId } = request.params;
      // Scope and permission first: nothing is stored for an employee the caller may not change.
      await employees.findEditableEmployee(db, scope, storeId, employeeId);
      const image = await readImageUpload(request);
      const key = `employees/${employeeId}/profile_picture-${randomBytes(8).toString('hex')}.${image.extension}`;
      await deps.storage.put(key, image.data);
      const { employee, previousUrl } = await employees.setEmployeeIllustration(
        db,
        scope,
        storeId,
        employeeId,
        `/api/files/${key}`,
      );
      // Only a picture this endpoint stored is removed (never a file another record uses).
      const ownPrefix = `/api/files/employees/${employeeId}/`;
      if (previousUrl?.startsWith(ownPrefix) && previousUrl !== employee.illustration_url) {
        await deps.storage.delete(previousUrl.slice('/api/files/'.length)).catch(() => {});
      }
      return { employee };
    },
  );
};
