import { Alert, Button, Group, Tabs } from '@mantine/core';
import type { StoreDetail as Store } from '@mise/shared/organisation/schemas';
import type { User } from '@mise/shared/users/schemas';
import { IconDatabase } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { useAppSession } from '../../../shared/session/app-session';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { ElementList } from '../../elements/lists';
import { EmployeesTab } from '../../employees/tabs';
import { StoreInspectorLinks } from '../../inspector/panels';
import { StoreProbeList } from '../../probes/panels';
import { StoreShopTab } from '../../shop/tabs';
import { StoreTasksTab } from '../../task-configurations/lists';
import { useSensorSession } from '../api/get-sensor-session';
import { getStore } from '../api/get-store';
import { useUpdateStore } from '../api/update-store';
import { useUpdateStoreLicence } from '../api/update-store-licence';
import { DatabasePickerDialog } from './database-picker-dialog';
import { StoreDevicesTab } from './store-devices-tab';
import {
  type StoreFormValues,
  type StorePermissions,
  storeFormValues,
  storeUpdateBody,
} from './store-form';
import { StoreGeneralTab } from './store-general-tab';
import { StoreProbeProviderTab, sensorConnection } from './store-probe-provider-tab';

type StoreDetailProps = { store: Store; viewer: User };

/**
 * Tabs by index (spec 000 §2): 0 General, 1 Elements, 2 Tasks, 3 Employees, 4 Probe provider,
 * 5 Devices; 6 Shop, the store's orders (issue 19).
 */
const tabKeys = [
  'general',
  'elements',
  'tasks',
  'employees',
  'probeProvider',
  'devices',
  'shop',
] as const;

/** Store detail (/store without a database, /storeDatabase with one). */
export function StoreDetail({ store, viewer }: StoreDetailProps) {
  const { t } = useTranslation();
  const session = useAppSession();
  const [searchParams, setSearchParams] = useSearchParams();
  // A new version of the store (a save, an upload) keeps what the user typed (issue 13); the
  // form lives above the tabs, so switching tabs keeps it and leaving the screen asks.
  const { values, setValues, isDirty, adopt } = useRecordDraft(store, storeFormValues);
  useUnsavedChangesPrompt(isDirty, { keptAcrossParams: ['tab'] });
  const [isPickerOpen, setIsPickerOpen] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const updateMutation = useUpdateStore(store.id);
  const licenceMutation = useUpdateStoreLicence(store.id);

  const isAdmin = viewer.role === 'admin';
  const permissions: StorePermissions = {
    isTabletMode: session.initialPage !== null,
    canManageLicence: isAdmin || viewer.role === 'distributor',
    isAdmin,
    canManageOwners:
      isAdmin ||
      viewer.role === 'distributor' ||
      (viewer.role === 'customer' &&
        (viewer.stores.includes(store.id) || store.owners.some((owner) => owner.id === viewer.id))),
    canRegeneratePairingKey: viewer.role !== 'manager',
  };
  const isCustomStore = session.customStoreId !== null;
  const isSessionNeeded = viewer.role !== 'manager';
  const sensorSession = useSensorSession(store.id, isSessionNeeded);
  const isProbeTabShown =
    permissions.canManageLicence ||
    (viewer.role === 'customer' && sensorConnection(sensorSession.data) !== 'distributor');

  const requestedTab = Number(searchParams.get('tab') ?? '0');
  // The elements and tasks lists need the store's database (route storeDatabase, spec 000 §2).
  const isElementsTabShown = store.database !== null;
  // A store that hides the shop extension has no Shop tab (its database's choice is the server's).
  const isShopTabShown = !store.hidden_extensions.includes('shop');
  const isTabAvailable = (index: number) =>
    index === 0 ||
    index === 3 ||
    index === 5 ||
    (index === 4 && isProbeTabShown) ||
    ((index === 1 || index === 2) && isElementsTabShown) ||
    (index === 6 && isShopTabShown);
  const tabIndex =
    Number.isInteger(requestedTab) && isTabAvailable(requestedTab) ? requestedTab : 0;

  function setValue<Key extends keyof StoreFormValues>(key: Key, value: StoreFormValues[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleTab(value: string | null) {
    const next = new URLSearchParams(searchParams);
    next.set('tab', value ?? '0');
    setSearchParams(next, { replace: true });
  }

  function refusePermission() {
    notifyError(t('errors.permission/denied'), { autoClose: saveErrorDurationMs });
  }

  async function handleSave() {
    if (store.is_read_only) {
      refusePermission();
      return;
    }
    const required = [values.name, values.address, values.postal_code, values.city];
    if (!permissions.isTabletMode && required.some((value) => value.trim() === '')) {
      notifyError(t('forms.fillRequired'), { autoClose: saveErrorDurationMs });
      return;
    }
    setIsSaving(true);
    try {
      let version = store.version;
      const isLicenceChanged =
        permissions.canManageLicence &&
        !isCustomStore &&
        values.mise_licence !== store.mise_licence;
      if (isLicenceChanged) {
        // The monitoring server is updated first; a refusal aborts the whole save.
        try {
          const result = await licenceMutation.mutateAsync(values.mise_licence);
          if (result?.status !== 'ok') throw new Error('licence refused');
        } catch (error) {
          notifyError(
            isApiError(error) && error.code !== 'licence/monitoring-failed'
              ? errorMessage(t, error)
              : t('errors.licence/monitoring-failed'),
            { autoClose: saveErrorDurationMs },
          );
          return;
        }
        version = (await getStore(store.id)).version;
      }
      const saved = await updateMutation.mutateAsync({
        ...storeUpdateBody(store, values, permissions),
        version,
      });
      adopt(saved);
      notifySuccess(t('common.savedSuccessfully'));
    } catch (error) {
      notifyError(
        isApiError(error, 'conflict/stale-version')
          ? t('errors.conflict/stale-version')
          : errorMessage(t, error),
        { autoClose: saveErrorDurationMs },
      );
    } finally {
      setIsSaving(false);
    }
  }

  // The Elements and Tasks tabs carry their own New and expert buttons (spec 001 §2.11).
  return (
    <>
      <PageHeader
        title={store.name}
        subtitle={store.database_name ?? t('store.noDatabase')}
        actions={
          <LoadingButton onClick={handleSave} loading={isSaving} data-testid="save">
            {t('common.save')}
          </LoadingButton>
        }
      />
      {store.database === null ? (
        <Alert
          color="yellow"
          icon={<IconDatabase size={18} />}
          mb="md"
          title={t('store.noDatabase')}
          data-testid="store-no-database"
        >
          <Group justify="space-between">
            {t('store.noDatabaseDescription')}
            <Button
              size="xs"
              onClick={() => setIsPickerOpen(true)}
              disabled={!permissions.canManageLicence}
              data-testid="select-database"
            >
              {t('store.pickDatabase')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <Tabs value={String(tabIndex)} onChange={handleTab} keepMounted={false}>
        <Tabs.List mb="md">
          {tabKeys.map((key, index) => {
            if (index === 4 && !isProbeTabShown) return null;
            if ((index === 1 || index === 2) && !isElementsTabShown) return null;
            if (index === 6 && !isShopTabShown) return null;
            return (
              <Tabs.Tab key={key} value={String(index)} data-testid={`store-tab-${key}`}>
                {t(`store.tabs.${key}`)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        <Tabs.Panel value="0">
          <StoreGeneralTab
            store={store}
            values={values}
            setValue={setValue}
            permissions={permissions}
            isCustomStore={isCustomStore}
            isCustomerViewer={viewer.role === 'customer'}
          />
          <StoreProbeList storeId={store.id} canOpenProbe={isAdmin} />
          <StoreInspectorLinks storeId={store.id} timeZone={store.timezone_name} />
        </Tabs.Panel>
        {isElementsTabShown ? (
          <Tabs.Panel value="1">
            <ElementList level="store" storeId={store.id} isReadOnly={store.is_read_only} />
          </Tabs.Panel>
        ) : null}
        {isElementsTabShown ? (
          <Tabs.Panel value="2">
            <StoreTasksTab
              storeId={store.id}
              isReadOnly={store.is_read_only}
              timeZone={store.timezone_name}
            />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="3">
          <EmployeesTab storeId={store.id} isReadOnly={store.is_read_only} />
        </Tabs.Panel>
        {isProbeTabShown ? (
          <Tabs.Panel value="4">
            <StoreProbeProviderTab
              store={store}
              session={sensorSession}
              values={values}
              setValue={setValue}
              permissions={permissions}
            />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="5">
          <StoreDevicesTab
            store={store}
            values={values}
            setValue={setValue}
            permissions={permissions}
          />
        </Tabs.Panel>
        {isShopTabShown ? (
          <Tabs.Panel value="6">
            <StoreShopTab storeId={store.id} canOrder={!store.is_read_only} />
          </Tabs.Panel>
        ) : null}
      </Tabs>
      <DatabasePickerDialog
        opened={isPickerOpen}
        onClose={() => setIsPickerOpen(false)}
        storeId={store.id}
      />
    </>
  );
}
