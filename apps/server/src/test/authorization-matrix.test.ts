import { randomBytes, randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  alertEpisodes,
  auditResults,
  audits,
  auditVersions,
  communications,
  documents,
  inspectorLinks,
  probes,
  stores,
  trainings,
  users,
} from '../db/schema';
import { chainAlertEpisodeEvents } from '../modules/records/sources/alert-episodes';
import { chainAuditResult } from '../modules/records/sources/audit-results';
import { hashToken } from '../platform/auth/tokens';
import {
  buildDatabase,
  buildDatabaseElement,
  buildStore,
  buildStoreElement,
  buildStoreTaskConfiguration,
  buildTask,
  buildTaskConfiguration,
  buildTwoTenants,
  buildUser,
  testPassword,
} from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * Every endpoint × every role × a record inside and outside the role's scope (spec 000 §6 and
 * the decision in platform/scope.ts). The expected visibility below is written out by hand,
 * from the spec, not derived from the server's scope code.
 *
 * Tenant A is two databases of distributor A: "database A" (managed by manager A, stores A1
 * and A2, customer A owns A1) and "database A2" (store A3, owned by customer A3, no manager).
 * Tenant B is distributor B, database B, stores B1 and B2 and one account per role.
 */

const context = useTestApp();

type Role = 'anonymous' | 'admin' | 'distributor' | 'manager' | 'customer';
const roles: Role[] = ['anonymous', 'admin', 'distributor', 'manager', 'customer'];
type SignedInRole = Exclude<Role, 'anonymous'>;

const userLabels = [
  'admin',
  'distributor A',
  'manager A',
  'customer A',
  'customer A3',
  'distributor B',
  'manager B',
  'customer B',
] as const;
type UserLabel = (typeof userLabels)[number];
type DistributorLabel = 'distributor record A' | 'distributor record B';
type DatabaseLabel = 'database A' | 'database A2' | 'database B';
type StoreLabel = 'store A1' | 'store A2' | 'store A3' | 'store B1' | 'store B2';
type Label = UserLabel | DistributorLabel | DatabaseLabel | StoreLabel;

/** Who each signed-in role is, and what it may see. */
const self: Record<SignedInRole, UserLabel> = {
  admin: 'admin',
  distributor: 'distributor A',
  manager: 'manager A',
  customer: 'customer A',
};
const visible: Record<
  SignedInRole,
  {
    users: UserLabel[];
    distributors: DistributorLabel[];
    databases: DatabaseLabel[];
    stores: StoreLabel[];
  }
> = {
  admin: {
    users: [...userLabels],
    distributors: ['distributor record A', 'distributor record B'],
    databases: ['database A', 'database A2', 'database B'],
    stores: ['store A1', 'store A2', 'store A3', 'store B1', 'store B2'],
  },
  distributor: {
    users: ['distributor A', 'manager A', 'customer A', 'customer A3'],
    distributors: ['distributor record A'],
    databases: ['database A', 'database A2'],
    stores: ['store A1', 'store A2', 'store A3'],
  },
  manager: {
    users: ['manager A'],
    distributors: ['distributor record A'],
    databases: ['database A'],
    stores: ['store A1', 'store A2'],
  },
  customer: {
    users: ['customer A'],
    distributors: ['distributor record A'],
    databases: ['database A'],
    stores: ['store A1'],
  },
};
const tenantBLabels: Label[] = [
  'distributor B',
  'manager B',
  'customer B',
  'distributor record B',
  'database B',
  'store B1',
  'store B2',
];

type Case = {
  role: Role;
  endpoint: string;
  record: string;
  expected: number;
  /** Sends the request; `id` resolves a label to the fixture's id. */
  send: (agent: Agent | null) => Promise<LightMyRequestResponse>;
  /** Extra checks on a 200 answer. */
  check?: (response: LightMyRequestResponse) => void;
};

const ids = new Map<Label, string>();
const id = (label: Label) => {
  const value = ids.get(label);
  if (!value) throw new Error(`no fixture for ${label}`);
  return value;
};
const fileUrls = new Map<UserLabel, string>();
const agents = new Map<SignedInRole, Agent>();

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

const anonymousOr = (role: Role, status: number) => (role === 'anonymous' ? 401 : status);
const sortedIds = (labels: Label[]) => labels.map(id).sort();
const itemIds = (response: LightMyRequestResponse) =>
  (response.json().items as { id: string }[]).map((item) => item.id).sort();

function listCases(
  endpoint: string,
  kind: 'users' | 'distributors' | 'databases' | 'stores',
): Case[] {
  return roles.map((role) => ({
    role,
    endpoint: `GET ${endpoint}`,
    record: 'list',
    expected: anonymousOr(role, 200),
    send: (agent) => send(agent, { method: 'GET', url: endpoint }),
    check: (response) => {
      if (role === 'anonymous') return;
      expect(itemIds(response)).toEqual(sortedIds(visible[role][kind]));
    },
  }));
}

function perUserCases(
  endpoint: string,
  expectedFor: (role: SignedInRole, isVisible: boolean, isSelf: boolean) => number,
  request: (label: UserLabel, agent: Agent | null) => Promise<LightMyRequestResponse>,
  check?: (role: Role, label: UserLabel) => (response: LightMyRequestResponse) => void,
): Case[] {
  return roles.flatMap((role) =>
    userLabels.map((label) => ({
      role,
      endpoint,
      record: label,
      expected:
        role === 'anonymous'
          ? 401
          : expectedFor(role, visible[role].users.includes(label), self[role] === label),
      send: (agent: Agent | null) => request(label, agent),
      check: check?.(role, label),
    })),
  );
}

async function currentVersion(userId: string): Promise<number> {
  const [row] = await context.db
    .select({ version: users.version })
    .from(users)
    .where(eq(users.id, userId));
  return row!.version;
}

let registered = 0;
function registerCases(): Case[] {
  const targets: {
    record: Label;
    role: 'customer' | 'manager' | 'distributor';
    field: string;
    isTenantA: boolean;
  }[] = [
    { record: 'store A1', role: 'customer', field: 'storeId', isTenantA: true },
    { record: 'store B1', role: 'customer', field: 'storeId', isTenantA: false },
    { record: 'database A', role: 'manager', field: 'databaseId', isTenantA: true },
    { record: 'database B', role: 'manager', field: 'databaseId', isTenantA: false },
    {
      record: 'distributor record A',
      role: 'distributor',
      field: 'distributorId',
      isTenantA: true,
    },
    {
      record: 'distributor record B',
      role: 'distributor',
      field: 'distributorId',
      isTenantA: false,
    },
  ];
  return roles.flatMap((role) =>
    targets.map((target) => ({
      role,
      endpoint: 'POST /api/auth/registerAccount',
      record: target.record,
      expected: {
        anonymous: 401,
        admin: 200,
        distributor: target.isTenantA ? 200 : 404,
        manager: 403,
        customer: 403,
      }[role],
      send: (agent: Agent | null) => {
        registered += 1;
        return send(agent, {
          method: 'POST',
          url: '/api/auth/registerAccount',
          payload: {
            name: 'Matrix',
            surname: `Account${registered}`,
            email: `matrix-${registered}@example.test`,
            password: 'Fresh-bread-2026',
            phone: '',
            role: target.role,
            [target.field]: id(target.record),
          },
        });
      },
    })),
  );
}

const storeLabels: StoreLabel[] = ['store A1', 'store A2', 'store A3', 'store B1', 'store B2'];

/** Probes (issue 15): the registry is the admin's; a store's probes follow the store's scope. */
function probeCases(): Case[] {
  return [
    ...roles.map(
      (role): Case => ({
        role,
        endpoint: 'GET /api/probes',
        record: 'list',
        expected: { anonymous: 401, admin: 200, distributor: 403, manager: 403, customer: 403 }[
          role
        ],
        send: (agent) => send(agent, { method: 'GET', url: '/api/probes' }),
      }),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/probes/store/:storeId',
          record: label,
          expected: role === 'anonymous' ? 401 : visible[role].stores.includes(label) ? 200 : 404,
          send: (agent) => send(agent, { method: 'GET', url: `/api/probes/store/${id(label)}` }),
          check: (response) =>
            expect(response.json().items.map((item: { storeId: string }) => item.storeId)).toEqual([
              id(label),
            ]),
        }),
      ),
    ),
  ];
}

/**
 * Probe alerts (issue 15): one episode in every store; a list shows only the stores the role
 * sees, an acknowledgement outside them is 404. The admin (run first) acknowledges each one, so
 * the others then meet 409 where they may see it.
 */
function alertCases(): Case[] {
  return [
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/alerts?storeId',
          record: label,
          expected: anonymousOr(role, 200),
          send: (agent) => send(agent, { method: 'GET', url: `/api/alerts?storeId=${id(label)}` }),
          check: (response) =>
            expect(response.json().items.map((item: { storeId: string }) => item.storeId)).toEqual(
              role !== 'anonymous' && visible[role].stores.includes(label) ? [id(label)] : [],
            ),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'POST /api/alerts/:alertId/acknowledge',
          record: label,
          expected:
            role === 'anonymous'
              ? 401
              : !visible[role].stores.includes(label)
                ? 404
                : role === 'admin'
                  ? 200
                  : 409,
          send: (agent) =>
            send(agent, {
              method: 'POST',
              url: `/api/alerts/${alertIds.get(label)}/acknowledge`,
              payload: { correctiveAction: `Checked by ${role}` },
            }),
        }),
      ),
    ),
  ];
}
const alertIds = new Map<StoreLabel, string>();

/**
 * Audits (issue 16, spec 002 §6): one published audit in every database and one submitted
 * result in every store. The list, the audit and performing are for admin, distributor and
 * manager (a customer is refused what it can see); results for admin and manager only.
 */
const databaseLabels: DatabaseLabel[] = ['database A', 'database A2', 'database B'];
const databaseOfStore: Record<StoreLabel, DatabaseLabel> = {
  'store A1': 'database A',
  'store A2': 'database A',
  'store A3': 'database A2',
  'store B1': 'database B',
  'store B2': 'database B',
};
const auditIds = new Map<DatabaseLabel, string>();
const auditResultIds = new Map<StoreLabel, string>();
const communicationIds = new Map<DatabaseLabel, string>();
const trainingIds = new Map<DatabaseLabel, string>();

/**
 * Documents (issue 17, spec 002 §6): the owner folders each role sees (distributors and admins:
 * databases and distributors; managers: their databases and manager-owned stores, none here;
 * customers: their stores), one folder in every store. Outside them every call is 404; a write
 * with a stale version where visible is 409 (nothing changes).
 */
const documentFolderIds = new Map<StoreLabel, string>();
const distributorLabels: DistributorLabel[] = ['distributor record A', 'distributor record B'];

function documentCases(): Case[] {
  const seesStoreFolder = (role: SignedInRole, label: StoreLabel) =>
    (role === 'admin' || role === 'customer') && visible[role].stores.includes(label);
  const seesDatabaseFolder = (role: SignedInRole, label: DatabaseLabel) =>
    role !== 'customer' && visible[role].databases.includes(label);
  const seesDistributorFolder = (role: SignedInRole, label: DistributorLabel) =>
    (role === 'admin' || role === 'distributor') && visible[role].distributors.includes(label);
  const list = (kind: string, label: Label) =>
    `/api/documents?owner_kind=${kind}&owner_id=${id(label)}`;
  return [
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/documents (store)',
          record: label,
          expected: role === 'anonymous' ? 401 : seesStoreFolder(role, label) ? 200 : 404,
          send: (agent) => send(agent, { method: 'GET', url: list('store', label) }),
          check: (response) => expect(itemIds(response)).toEqual([documentFolderIds.get(label)]),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/documents (database)',
          record: label,
          expected: role === 'anonymous' ? 401 : seesDatabaseFolder(role, label) ? 200 : 404,
          send: (agent) => send(agent, { method: 'GET', url: list('database', label) }),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      distributorLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/documents (distributor)',
          record: label,
          expected: role === 'anonymous' ? 401 : seesDistributorFolder(role, label) ? 200 : 404,
          send: (agent) => send(agent, { method: 'GET', url: list('distributor', label) }),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'PATCH /api/documents/:id (stale version)',
          record: label,
          expected: role === 'anonymous' ? 401 : seesStoreFolder(role, label) ? 409 : 404,
          send: (agent) =>
            send(agent, {
              method: 'PATCH',
              url: `/api/documents/${documentFolderIds.get(label)}`,
              payload: { version: 99, name: 'Renamed' },
            }),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'POST /api/documents/folders (store)',
          record: label,
          // The name is taken where it may be seen: 409, nothing created.
          expected: role === 'anonymous' ? 401 : seesStoreFolder(role, label) ? 409 : 404,
          send: (agent) =>
            send(agent, {
              method: 'POST',
              url: '/api/documents/folders',
              payload: { owner: { kind: 'store', id: id(label) }, parent_id: null, name: 'Matrix' },
            }),
        }),
      ),
    ),
  ];
}

/**
 * Communications (issue 18, spec 002 §6): admins, managers and customers read them in the
 * databases they see (customers read only: a save answers 403); distributors are refused (403);
 * another tenant's database or communication is 404. A stale save where allowed is 409.
 */
/**
 * Export (copy) calls (issue 19, spec 001 §7): the source and the target each as the single
 * create checks its owner. Database calls: both databases seen (404 otherwise), customers 403
 * once the source is seen. Store calls: both stores seen and editable (a manager on a store
 * that is not manager-owned 403; none is here). One element and one task configuration in
 * every database and store; a 200 answer lists the selected object as created or skipped.
 */
const exportObjects = new Map<string, string>();
function catalogueExportCases(): Case[] {
  const databasePairs: [DatabaseLabel, DatabaseLabel][] = [
    ['database A', 'database A2'],
    ['database A2', 'database A'],
    ['database A', 'database B'],
    ['database B', 'database A'],
  ];
  const storePairs: [StoreLabel, StoreLabel][] = [
    ['store A1', 'store A2'],
    ['store A1', 'store A3'],
    ['store A1', 'store B1'],
    ['store B1', 'store A1'],
  ];
  const databaseExpected = (role: Role, [source, target]: [DatabaseLabel, DatabaseLabel]) => {
    if (role === 'anonymous') return 401;
    if (!visible[role].databases.includes(source)) return 404;
    if (role === 'customer') return 403;
    return visible[role].databases.includes(target) ? 200 : 404;
  };
  const storeExpected = (role: Role, [source, target]: [StoreLabel, StoreLabel]) => {
    if (role === 'anonymous') return 401;
    for (const label of [source, target]) {
      if (!visible[role].stores.includes(label)) return 404;
      if (role === 'manager') return 403;
    }
    return 200;
  };
  const call = (
    path: string,
    kind: 'element' | 'task',
    source: Label,
    target: Label,
    expected: number,
    role: Role,
  ): Case => ({
    role,
    endpoint: `POST /api/${path}`,
    record: `${source} → ${target}`,
    expected,
    send: (agent) =>
      send(agent, {
        method: 'POST',
        url: `/api/${path}`,
        headers: { 'idempotency-key': randomUUID() },
        payload: {
          sourceId: id(source),
          targetId: id(target),
          objectIds: [exportObjects.get(`${kind} ${source}`)],
          copyAttachments: false,
        },
      }),
    check: (response) => {
      const body = response.json() as {
        created: { source_id: string }[];
        skipped: { source_id: string }[];
      };
      expect([...body.created, ...body.skipped].map((item) => item.source_id)).toEqual([
        exportObjects.get(`${kind} ${source}`),
      ]);
    },
  });
  return roles.flatMap((role) => [
    ...databasePairs.flatMap((pair) => [
      call('database/copyDatabaseElements', 'element', ...pair, databaseExpected(role, pair), role),
      call('database/copyDatabaseTaskConfs', 'task', ...pair, databaseExpected(role, pair), role),
    ]),
    ...storePairs.flatMap((pair) => [
      call('stores/copyStoreElements', 'element', ...pair, storeExpected(role, pair), role),
      call('stores/copyStoreTaskConfs', 'task', ...pair, storeExpected(role, pair), role),
    ]),
  ]);
}

function communicationCases(): Case[] {
  const reading = (role: Role, label: DatabaseLabel, allowed: number) => {
    if (role === 'anonymous') return 401;
    if (!visible[role].databases.includes(label)) return 404;
    return role === 'distributor' ? 403 : allowed;
  };
  const endpoints: [string, (label: DatabaseLabel) => string][] = [
    [
      'GET /api/databases/:databaseId/communications',
      (label) => `/api/databases/${id(label)}/communications`,
    ],
    [
      'GET /api/databases/:databaseId/communications/home',
      (label) => `/api/databases/${id(label)}/communications/home`,
    ],
    [
      'GET /api/communications/:id',
      (label) => `/api/communications/${communicationIds.get(label)}`,
    ],
    [
      'GET /api/communications/:id/stats',
      (label) => `/api/communications/${communicationIds.get(label)}/stats`,
    ],
    [
      'GET /api/communications/:id/stats/stores',
      (label) => `/api/communications/${communicationIds.get(label)}/stats/stores`,
    ],
  ];
  return [
    ...endpoints.flatMap(([endpoint, url]) =>
      roles.flatMap((role) =>
        databaseLabels.map(
          (label): Case => ({
            role,
            endpoint,
            record: label,
            expected: reading(role, label, 200),
            send: (agent) => send(agent, { method: 'GET', url: url(label) }),
          }),
        ),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'PUT /api/communications/:id (stale version)',
          record: label,
          expected: reading(role, label, role === 'customer' ? 403 : 409),
          send: (agent) =>
            send(agent, {
              method: 'PUT',
              url: `/api/communications/${communicationIds.get(label)}`,
              payload: {
                version: 99,
                name: 'Matrix',
                active: true,
                start_day: '2026-11-01',
                end_day: '2026-12-31',
                attachment: {
                  name: 'missing.pdf',
                  path: `databases/${id(label)}/communications/x/missing.pdf`,
                },
                quiz: { questions: [] },
                target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
              },
            }),
        }),
      ),
    ),
  ];
}

/**
 * Trainings (issue 18, spec 002 §6): a database training reads where its database is visible
 * (every role) and is 404 elsewhere; a stale save is 409 for the roles that edit database
 * trainings (admin, distributor, manager) and 403 for customers.
 */
function trainingCases(): Case[] {
  const reading = (role: Role, label: DatabaseLabel, allowed: number) => {
    if (role === 'anonymous') return 401;
    if (!visible[role].databases.includes(label)) return 404;
    return allowed;
  };
  const endpoints: [string, (label: DatabaseLabel) => string][] = [
    ['GET /api/trainings/:id', (label) => `/api/trainings/${trainingIds.get(label)}`],
    ['GET /api/trainings/:id/stats', (label) => `/api/trainings/${trainingIds.get(label)}/stats`],
    [
      'GET /api/trainings/:id/stats/stores',
      (label) => `/api/trainings/${trainingIds.get(label)}/stats/stores`,
    ],
    ['GET /api/trainings/home', (label) => `/api/trainings/home?database_id=${id(label)}`],
  ];
  return [
    ...endpoints.flatMap(([endpoint, url]) =>
      roles.flatMap((role) =>
        databaseLabels.map(
          (label): Case => ({
            role,
            endpoint,
            record: label,
            expected: reading(role, label, 200),
            send: (agent) => send(agent, { method: 'GET', url: url(label) }),
          }),
        ),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'PUT /api/trainings/:id (stale version)',
          record: label,
          expected: reading(role, label, role === 'customer' ? 403 : 409),
          send: (agent) =>
            send(agent, {
              method: 'PUT',
              url: `/api/trainings/${trainingIds.get(label)}`,
              payload: {
                version: 99,
                name: 'Matrix',
                active: true,
                lang: 'fr',
                required: false,
                category_id: null,
                sections: [{ id: 's1', title: 'S', attachment: null, quiz: { questions: [] } }],
                target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
              },
            }),
        }),
      ),
    ),
  ];
}

function auditCases(): Case[] {
  const auditing = (role: Role, label: DatabaseLabel, allowed: number) => {
    if (role === 'anonymous') return 401;
    if (!visible[role].databases.includes(label)) return 404;
    return role === 'customer' ? 403 : allowed;
  };
  return [
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/databases/:databaseId/audits',
          record: label,
          expected: auditing(role, label, 200),
          send: (agent) =>
            send(agent, { method: 'GET', url: `/api/databases/${id(label)}/audits` }),
          check: (response) => expect(itemIds(response)).toEqual([auditIds.get(label)]),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/audits/:auditId',
          record: label,
          expected: auditing(role, label, 200),
          send: (agent) =>
            send(agent, { method: 'GET', url: `/api/audits/${auditIds.get(label)}` }),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/audits/:auditId/results',
          record: label,
          expected: auditing(role, label, role === 'distributor' ? 403 : 200),
          send: (agent) =>
            send(agent, { method: 'GET', url: `/api/audits/${auditIds.get(label)}/results` }),
          check: (response) =>
            expect(itemIds(response)).toEqual(
              storeLabels
                .filter(
                  (store) =>
                    databaseOfStore[store] === label &&
                    role !== 'anonymous' &&
                    visible[role].stores.includes(store),
                )
                .map((store) => auditResultIds.get(store))
                .sort(),
            ),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/audit-results/:resultId',
          record: label,
          expected:
            role === 'anonymous'
              ? 401
              : !visible[role].stores.includes(label)
                ? 404
                : role === 'customer'
                  ? 403
                  : role === 'distributor'
                    ? 404
                    : 200,
          send: (agent) =>
            send(agent, { method: 'GET', url: `/api/audit-results/${auditResultIds.get(label)}` }),
          check: (response) => expect(response.json().result.store.id).toBe(id(label)),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      databaseLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/databases/:databaseId/audits/home',
          record: label,
          expected:
            role === 'anonymous' ? 401 : visible[role].databases.includes(label) ? 200 : 404,
          send: (agent) =>
            send(agent, { method: 'GET', url: `/api/databases/${id(label)}/audits/home` }),
          check: (response) => expect(itemIds(response)).toEqual([auditIds.get(label)]),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'POST /api/audits/:auditId/results',
          record: label,
          // A customer is refused the audit of a database it sees, before any store.
          expected:
            role === 'anonymous'
              ? 401
              : role === 'customer' && visible[role].databases.includes(databaseOfStore[label])
                ? 403
                : !visible[role].stores.includes(label)
                  ? 404
                  : role === 'customer'
                    ? 403
                    : 200,
          send: (agent) =>
            send(agent, {
              method: 'POST',
              url: `/api/audits/${auditIds.get(databaseOfStore[label])}/results`,
              payload: { store_id: id(label) },
            }),
          check: (response) => expect(response.json().result.store.id).toBe(id(label)),
        }),
      ),
    ),
  ];
}

/** The admin technical screen's server calls (issue 20): admin only, for any instance. */
function profilingCases(): Case[] {
  const urls = ['/api/profiling/instances', '/api/profiling/live', '/api/profiling/output'];
  return roles.flatMap((role) =>
    urls.map(
      (url): Case => ({
        role,
        endpoint: `GET ${url}`,
        record: 'this instance',
        expected: anonymousOr(role, role === 'admin' ? 200 : 403),
        send: (agent) => send(agent, { method: 'GET', url }),
        check: (response) => {
          const body = response.json() as { items: unknown[]; instance_id?: string };
          expect(Array.isArray(body.items)).toBe(true);
          if (url !== '/api/profiling/instances') {
            expect(body.instance_id).toBe(context.app.profiling.identity.id);
          }
        },
      }),
    ),
  );
}

/**
 * Inspector links (issue 21): created, listed and revoked by whoever reads the store's history
 * (admin, its distributor, its owner; manager A has no store access in database A: 403). A
 * signed-in session opens no inspector route; an inspector link of store A1 (no session) opens
 * the tasks of store A1 only. Every store is licensed (the history's rule).
 */
const inspectorLinkIds = new Map<StoreLabel, string>();
const inspectorTaskIds = new Map<StoreLabel, string>();
const inspectorToken = `matrix-inspector-${randomBytes(16).toString('hex')}`;
const inspectorPeriod = { period_start: '2026-11-16', period_end: '2026-11-22' };

function inspectorLinkCases(): Case[] {
  const readsHistory = (role: SignedInRole, label: StoreLabel) =>
    visible[role].stores.includes(label) ? (role === 'manager' ? 403 : 200) : 404;
  const links = (label: StoreLabel) => `/api/stores/${id(label)}/inspector-links`;
  return [
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'POST /api/stores/:storeId/inspector-links',
          record: label,
          expected:
            role === 'anonymous'
              ? 401
              : readsHistory(role, label) === 200
                ? 201
                : readsHistory(role, label),
          send: (agent) =>
            send(agent, {
              method: 'POST',
              url: links(label),
              payload: { label: `Matrix ${role}`, ...inspectorPeriod, expires_in_days: 7 },
            }),
          check: (response) => expect(response.json().link.store_id).toBe(id(label)),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/stores/:storeId/inspector-links',
          record: label,
          expected: role === 'anonymous' ? 401 : readsHistory(role, label),
          send: (agent) => send(agent, { method: 'GET', url: links(label) }),
          check: (response) => {
            const items = response.json().items as { store_id: string }[];
            expect(items.length).toBeGreaterThan(0);
            expect(items.every((item) => item.store_id === id(label))).toBe(true);
          },
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'DELETE /api/stores/:storeId/inspector-links/:id',
          record: label,
          expected: role === 'anonymous' ? 401 : readsHistory(role, label),
          send: (agent) =>
            send(agent, {
              method: 'DELETE',
              url: `${links(label)}/${inspectorLinkIds.get(label)}`,
            }),
          check: (response) => expect(response.json().link.status).toBe('revoked'),
        }),
      ),
    ),
    ...roles.flatMap((role) =>
      storeLabels.map(
        (label): Case => ({
          role,
          endpoint: 'GET /api/inspect/tasks/:id (session, no link)',
          record: label,
          expected: 401,
          send: (agent) =>
            send(agent, {
              method: 'GET',
              url: `/api/inspect/tasks/${inspectorTaskIds.get(label)}`,
            }),
        }),
      ),
    ),
    ...storeLabels.map(
      (label): Case => ({
        role: 'anonymous',
        endpoint: 'GET /api/inspect/tasks/:id (link of store A1)',
        record: label,
        expected: label === 'store A1' ? 200 : 404,
        send: () =>
          context.app.inject({
            method: 'GET',
            url: `/api/inspect/tasks/${inspectorTaskIds.get(label)}`,
            headers: { authorization: `Inspector ${inspectorToken}` },
          }),
        check: (response) => expect(response.json().task.store_id).toBe(id(label)),
      }),
    ),
    ...storeLabels.map(
      (label): Case => ({
        role: 'anonymous',
        endpoint: 'GET /api/inspect/history (link of store A1)',
        record: label,
        expected: 200,
        send: () =>
          context.app.inject({
            method: 'GET',
            url: '/api/inspect/history?day=2026-11-18&module=temperatures&filter=all',
            headers: { authorization: `Inspector ${inspectorToken}` },
          }),
        // Whatever store the caller has in mind, the link shows store A1's tasks only.
        check: (response) =>
          expect(response.json().items.map((item: { id: string }) => item.id)).toEqual([
            inspectorTaskIds.get('store A1'),
          ]),
      }),
    ),
  ];
}

/** The records chain's verifier (issue 21): admin only, for any store. */
function recordsCases(): Case[] {
  return roles.flatMap((role) =>
    (['store A1', 'store B1'] as const).map(
      (label): Case => ({
        role,
        endpoint: 'GET /api/records/verify',
        record: label,
        expected: anonymousOr(role, role === 'admin' ? 200 : 403),
        send: (agent) =>
          send(agent, { method: 'GET', url: `/api/records/verify?storeId=${id(label)}` }),
        check: (response) =>
          expect(response.json()).toMatchObject({ status: 'intact', store_id: id(label) }),
      }),
    ),
  );
}

/**
 * A database's retention of records (issue 21): read by whoever sees the database, changed by
 * all of them but customers; another tenant's database is not found.
 */
function retentionCases(): Case[] {
  return roles.flatMap((role) =>
    databaseLabels.flatMap((label): Case[] => {
      const isVisible = role !== 'anonymous' && visible[role].databases.includes(label);
      const url = () => `/api/databases/${id(label)}/retention`;
      const check = (response: LightMyRequestResponse) =>
        expect(response.json()).toMatchObject({ database_id: id(label) });
      return [
        {
          role,
          endpoint: 'GET /api/databases/:id/retention',
          record: label,
          expected: anonymousOr(role, isVisible ? 200 : 404),
          send: (agent) => send(agent, { method: 'GET', url: url() }),
          check,
        },
        {
          role,
          endpoint: 'PUT /api/databases/:id/retention',
          record: label,
          expected: anonymousOr(role, !isVisible ? 404 : role === 'customer' ? 403 : 200),
          send: (agent) =>
            send(agent, {
              method: 'PUT',
              url: url(),
              payload: { documents: null, audit_results: null },
            }),
          check,
        },
      ];
    }),
  );
}

const cases: Case[] = [
  ...roles.map(
    (role): Case => ({
      role,
      endpoint: 'GET /api/me',
      record: 'self',
      expected: anonymousOr(role, 200),
      send: (agent) => send(agent, { method: 'GET', url: '/api/me' }),
      check: (response) => {
        if (role !== 'anonymous') expect(response.json().user.id).toBe(id(self[role]));
      },
    }),
  ),
  ...listCases('/api/users', 'users'),
  ...listCases('/api/distributors', 'distributors'),
  ...listCases('/api/databases', 'databases'),
  ...listCases('/api/stores', 'stores'),
  ...perUserCases(
    'GET /api/users/:id',
    (_role, isVisible) => (isVisible ? 200 : 404),
    (label, agent) => send(agent, { method: 'GET', url: `/api/users/${id(label)}` }),
    (_role, label) => (response) => expect(response.json().user.id).toBe(id(label)),
  ),
  ...perUserCases(
    'GET /api/files/accounts/:id/...',
    (_role, isVisible) => (isVisible ? 200 : 404),
    (label, agent) => send(agent, { method: 'GET', url: fileUrls.get(label)! }),
    () => (response) => expect(response.headers['content-type']).toBe('image/png'),
  ),
  ...perUserCases(
    'GET /api/users/:id/stores',
    (role) => (role === 'admin' ? 200 : 403),
    (label, agent) => send(agent, { method: 'GET', url: `/api/users/${id(label)}/stores` }),
  ),
  ...perUserCases(
    'PATCH /api/users/:id',
    (role, isVisible, isSelf) => {
      if (!isVisible) return 404;
      return role === 'admin' || role === 'distributor' || isSelf ? 200 : 403;
    },
    async (label, agent) =>
      send(agent, {
        method: 'PATCH',
        url: `/api/users/${id(label)}`,
        payload: { version: await currentVersion(id(label)), phone_number: '+33 1 00 00 00 00' },
      }),
    (_role, label) => (response) =>
      expect(response.json().user).toMatchObject({
        id: id(label),
        phone_number: '+33 1 00 00 00 00',
      }),
  ),
  ...perUserCases(
    'POST /api/auth/createToken',
    (role, isVisible) => {
      if (role === 'manager' || role === 'customer') return 403;
      return isVisible ? 200 : 404;
    },
    (label, agent) =>
      send(agent, { method: 'POST', url: '/api/auth/createToken', payload: { UId: id(label) } }),
    () => (response) => expect(response.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/),
  ),
  ...registerCases(),
  ...probeCases(),
  ...alertCases(),
  ...auditCases(),
  ...communicationCases(),
  ...trainingCases(),
  ...documentCases(),
  ...catalogueExportCases(),
  ...profilingCases(),
  ...recordsCases(),
  ...retentionCases(),
  ...inspectorLinkCases(),
];

// A valid 1×1 PNG, uploaded as every account's illustration.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function pngUpload() {
  const boundary = `----mise-matrix-${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="face.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Bodies answered to tenant A's accounts: none may carry an id of tenant B. */
const tenantABodies: { label: string; body: string }[] = [];

describe('authorization matrix', () => {
  beforeAll(async () => {
    const { admin, a, b } = await buildTwoTenants(context.db);
    const databaseA2 = await buildDatabase(context.db, {
      name: 'Database A2',
      distributor_id: a.distributor.id,
    });
    const storeA3 = await buildStore(context.db, {
      name: 'Store A3',
      distributor_id: a.distributor.id,
      database_id: databaseA2.id,
    });
    const customerA3 = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [storeA3.id],
    });
    const entries: [Label, string][] = [
      ['admin', admin.id],
      ['distributor A', a.users.distributor.id],
      ['manager A', a.users.manager.id],
      ['customer A', a.users.customer.id],
      ['customer A3', customerA3.id],
      ['distributor B', b.users.distributor.id],
      ['manager B', b.users.manager.id],
      ['customer B', b.users.customer.id],
      ['distributor record A', a.distributor.id],
      ['distributor record B', b.distributor.id],
      ['database A', a.database.id],
      ['database A2', databaseA2.id],
      ['database B', b.database.id],
      ['store A1', a.stores[0]!.id],
      ['store A2', a.stores[1]!.id],
      ['store A3', storeA3.id],
      ['store B1', b.stores[0]!.id],
      ['store B2', b.stores[1]!.id],
    ];
    for (const [label, value] of entries) ids.set(label, value);
    // One probe in every store, so each store's probe list has something to show or leak.
    await context.db.insert(probes).values(
      storeLabels.map((label, index) => ({
        probe_uid: `matrix-probe-${index}`,
        name: `Matrix probe ${label}`,
        store_id: id(label),
        secret_hash: `hash-${index}`,
      })),
    );
    const matrixProbes = await context.db
      .select({ id: probes.id, store_id: probes.store_id })
      .from(probes);
    for (const label of storeLabels) {
      const probe = matrixProbes.find((row) => row.store_id === id(label))!;
      const [episode] = await context.db
        .insert(alertEpisodes)
        .values({
          probe_id: probe.id,
          store_id: id(label),
          kind: 'out_of_range',
          started_at: new Date('2026-11-24T10:00:00Z'),
          delay_minutes: 15,
        })
        .returning({ id: alertEpisodes.id });
      // Records are chained as the application chains them (the verifier cases expect intact).
      await chainAlertEpisodeEvents(context.db, [{ id: episode!.id, event: 'opened' }]);
      alertIds.set(label, episode!.id);
    }

    // One published audit per database, one submitted result per store.
    for (const label of databaseLabels) {
      const [audit] = await context.db
        .insert(audits)
        .values({
          database_id: id(label),
          name: `Matrix audit ${label}`,
          published: true,
          publishing_date: new Date('2026-11-20T08:00:00Z'),
        })
        .returning({ id: audits.id });
      await context.db.insert(auditVersions).values({
        audit_id: audit!.id,
        version: 1,
        database_id: id(label),
        name: 'Matrix',
        sections: [],
      });
      auditIds.set(label, audit!.id);
    }
    for (const label of storeLabels) {
      const [result] = await context.db
        .insert(auditResults)
        .values({
          audit_id: auditIds.get(databaseOfStore[label])!,
          audit_version: 1,
          database_id: id(databaseOfStore[label]),
          store_id: id(label),
          source: 'web',
          auditor_name: 'Matrix auditor',
          status: 'submitted',
          end_date: new Date('2026-11-21T08:00:00Z'),
        })
        .returning();
      await chainAuditResult(context.db, result!);
      auditResultIds.set(label, result!.id);
    }

    // One communication per database (a stale save is refused before its attachment is read).
    for (const label of databaseLabels) {
      const [communication] = await context.db
        .insert(communications)
        .values({
          database_id: id(label),
          name: `Matrix communication ${label}`,
          start_day: '2026-11-01',
          end_day: '2026-12-31',
          time_zone: 'Europe/Paris',
          start_at: new Date('2026-10-31T23:00:00Z'),
          end_at: new Date('2026-12-31T22:59:59Z'),
          target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
        })
        .returning({ id: communications.id });
      communicationIds.set(label, communication!.id);
    }
    for (const label of databaseLabels) {
      const [training] = await context.db
        .insert(trainings)
        .values({
          name: `Matrix training ${label}`,
          active: true,
          type: 'database',
          source: id(label),
          database_id: id(label),
          target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
        })
        .returning({ id: trainings.id });
      trainingIds.set(label, training!.id);
    }

    for (const label of storeLabels) {
      const [folder] = await context.db
        .insert(documents)
        .values({
          owner_kind: 'store',
          owner_id: id(label),
          store_id: id(label),
          name: 'Matrix',
          type: 'folder',
        })
        .returning({ id: documents.id });
      documentFolderIds.set(label, folder!.id);
    }
    // One element and one task configuration in every database and store (export calls).
    for (const label of databaseLabels) {
      const element = await buildDatabaseElement(context.db, { database_id: id(label) });
      const task = await buildTaskConfiguration(context.db, { database_id: id(label) });
      exportObjects.set(`element ${label}`, element.id);
      exportObjects.set(`task ${label}`, task.id);
    }
    for (const label of storeLabels) {
      const element = await buildStoreElement(context.db, {
        store_id: id(label),
        name: `Matrix element ${label}`,
        active: true,
      });
      const task = await buildStoreTaskConfiguration(context.db, {
        store_id: id(label),
        module: 'actions',
        name: `Matrix task ${label}`,
        configuration: { actions: [{ name: 'Clean', requires_picture: false, attachments: [] }] },
      });
      exportObjects.set(`element ${label}`, element.id);
      exportObjects.set(`task ${label}`, task.id);
    }
    // Inspector links (issue 21): every store licensed (the history's rule), a task of
    // 2026-11-18 and a revocable link in every store, and store A1's link for the inspector.
    await context.db
      .update(stores)
      .set({ mise_licence: true })
      .where(inArray(stores.id, storeLabels.map(id)));
    for (const label of storeLabels) {
      const task = await buildTask(context.db, {
        store_id: id(label),
        day: '2026-11-18',
        start: new Date('2026-11-18T08:00:00Z'),
        name: `Matrix inspected ${label}`,
      });
      inspectorTaskIds.set(label, task.id);
      const [link] = await context.db
        .insert(inspectorLinks)
        .values({
          store_id: id(label),
          token_hash: hashToken(`matrix-revocable-${label}-${randomBytes(8).toString('hex')}`),
          ...inspectorPeriod,
          expires_at: new Date(Date.now() + 86_400_000),
        })
        .returning({ id: inspectorLinks.id });
      inspectorLinkIds.set(label, link!.id);
    }
    await context.db.insert(inspectorLinks).values({
      store_id: id('store A1'),
      token_hash: hashToken(inspectorToken),
      ...inspectorPeriod,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    agents.set('admin', await signIn(context.app, admin.email, testPassword));
    agents.set('distributor', await signIn(context.app, a.users.distributor.email, testPassword));
    agents.set('manager', await signIn(context.app, a.users.manager.email, testPassword));
    agents.set('customer', await signIn(context.app, a.users.customer.email, testPassword));

    for (const label of userLabels) {
      const response = await agents.get('admin')!.inject({
        method: 'POST',
        url: `/api/users/${id(label)}/illustration`,
        ...pngUpload(),
      });
      expect(response.statusCode).toBe(200);
      fileUrls.set(label, response.json().user.illustration_url);
    }
  });

  it.each(cases)('$role: $endpoint [$record] → $expected', async (testCase) => {
    const agent = testCase.role === 'anonymous' ? null : agents.get(testCase.role)!;
    const response = await testCase.send(agent);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(testCase.expected);
    if (response.statusCode === 200) testCase.check?.(response);
    if (
      testCase.role === 'distributor' ||
      testCase.role === 'manager' ||
      testCase.role === 'customer'
    ) {
      tenantABodies.push({
        label: `${testCase.role} ${testCase.endpoint} [${testCase.record}]`,
        body: response.body,
      });
    }
  });

  it("no answer to tenant A's accounts carries an id of tenant B", () => {
    const tenantBIds = tenantBLabels.map(id);
    const leaks = tenantABodies.flatMap(({ label, body }) =>
      tenantBIds.filter((value) => body.includes(value)).map((value) => `${label} shows ${value}`),
    );
    expect(leaks).toEqual([]);
    // Every case ran and recorded its answer (tenant A's three roles are 3/5 of the table).
    expect(tenantABodies).toHaveLength(
      cases.filter((testCase) => ['distributor', 'manager', 'customer'].includes(testCase.role))
        .length,
    );
    console.log(`authorization matrix: ${cases.length} pairs`);
  });
});
