import {
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { DatabaseDetail as Database } from '@mise/shared/organisation/schemas';
import { escalationMinutesRange } from '@mise/shared/probes/alert-rules';
import type { User } from '@mise/shared/users/schemas';
import { IconAdjustments, IconTable } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { ImageUpload } from '../../../shared/ui/image-upload';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { type HiddenFeatures, ModulesDialog } from '../../../shared/ui/modules-dialog';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { PageHeader } from '../../../shared/ui/page-header';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { ElementList } from '../../elements/lists';
import { EmployeeRolesEditor } from '../../employee-roles/tabs';
import { RetentionEditor } from '../../retention/tabs';
import { DatabaseShopEditor } from '../../shop/tabs';
import { StoreTagsEditor } from '../../store-tags/tabs';
import { TaskConfigurationList } from '../../task-configurations/lists';
import { useDistributorOptions } from '../api/get-distributor-options';
import { useUpdateDatabase } from '../api/update-database';
import { useUploadDatabaseIllustration } from '../api/upload-database-illustration';
import { useUploadDatabaseScreenSaver } from '../api/upload-database-screen-saver';
import { DatabaseManagers } from './database-managers';

type DatabaseDetailProps = { database: Database; viewer: User };

/** What the general tab edits before Save. */
type DatabaseFormValues = {
  name: string;
  distributorId: string | null;
  store_access: boolean;
  licence_price: number | null;
  alert_escalation_minutes: number | null;
  hidden_modules: Database['hidden_modules'];
  hidden_extensions: Database['hidden_extensions'];
};

function databaseFormValues(database: Database): DatabaseFormValues {
  return {
    name: database.name,
    distributorId: database.distributor,
    store_access: database.store_access,
    licence_price: database.licence_price,
    alert_escalation_minutes: database.alert_escalation_minutes,
    hidden_modules: database.hidden_modules,
    hidden_extensions: database.hidden_extensions,
  };
}

/**
 * Tabs by index (spec 001 §2.1): 0 general, 1 elements, 2 tasks, then tags, roles, shop and the
 * retention of records (issue 21).
 */
const tabKeys = ['general', 'elements', 'tasks', 'tags', 'roles', 'shop', 'retention'] as const;
/** Tabs that come with later issues: shown disabled. */
const comingTabIndexes = new Set<number>([]);
/** Hidden with the database (spec 001 §2.1: its settings, tags, roles, shop and retention included). */
const hiddenDatabaseTabIndexes = new Set([1, 2, 3, 4, 5, 6]);

/**
 * Database detail (spec 001 §2.1): the general, elements, tasks, tags, roles and shop tabs (the
 * shop tab has its own Save, editable by the distributor and admins only), and the retention of
 * records (issue 21, its own Save). The open tab travels
 * in the URL (`tab=<index>`, as on the store screen), so coming back from an element or a task
 * configuration reopens the list.
 */
export function DatabaseDetail({ database, viewer }: DatabaseDetailProps) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const isTabShown = (index: number) => !database.hidden || !hiddenDatabaseTabIndexes.has(index);
  const requestedTab = Number(searchParams.get('tab') ?? '0');
  const tabIndex =
    Number.isInteger(requestedTab) &&
    requestedTab >= 0 &&
    requestedTab < tabKeys.length &&
    isTabShown(requestedTab) &&
    !comingTabIndexes.has(requestedTab)
      ? requestedTab
      : 0;
  const isAdmin = viewer.role === 'admin';
  const canManageAccess = viewer.role === 'admin' || viewer.role === 'distributor';
  // The bulk screens: not for customers, not on mobile (spec 001 §2.1, §6).
  const isMobile = useMediaQuery('(max-width: 749.98px)') ?? false;
  const isExpertModeShown = viewer.role !== 'customer' && !isMobile;
  // A new version of the database (a save, an upload) keeps what the user typed (issue 13).
  const { values, setValues, isDirty, adopt } = useRecordDraft(database, databaseFormValues);
  // The form lives above the tabs: switching tabs keeps it, leaving the screen asks.
  useUnsavedChangesPrompt(isDirty, { keptAcrossParams: ['tab'] });
  const [isModulesOpen, setIsModulesOpen] = useState(false);
  const updateMutation = useUpdateDatabase(database.id);
  const illustrationMutation = useUploadDatabaseIllustration(database.id);
  const screenSaverMutation = useUploadDatabaseScreenSaver(database.id);
  const isDistributorLocked = database.distributor !== null || !isAdmin;
  const distributors = useDistributorOptions(isAdmin && database.distributor === null);

  function handleTab(value: string | null) {
    const next = new URLSearchParams(searchParams);
    next.set('tab', value ?? '0');
    setSearchParams(next, { replace: true });
  }

  function setValue<Key extends keyof typeof values>(key: Key, value: (typeof values)[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleModules(hidden: HiddenFeatures) {
    setValues((current) => ({ ...current, ...hidden }));
    setIsModulesOpen(false);
  }

  function handleSave() {
    if (values.name.trim() === '') {
      notifyError(t('forms.fillRequired'), { autoClose: saveErrorDurationMs });
      return;
    }
    updateMutation.mutate(
      {
        version: database.version,
        name: values.name.trim(),
        hidden_modules: values.hidden_modules,
        hidden_extensions: values.hidden_extensions,
        ...(database.distributor === null && values.distributorId && isAdmin
          ? { distributorId: values.distributorId }
          : {}),
        ...(canManageAccess ? { store_access: values.store_access } : {}),
        ...(isAdmin ? { licence_price: values.licence_price } : {}),
        ...(values.alert_escalation_minutes !== null
          ? { alert_escalation_minutes: values.alert_escalation_minutes }
          : {}),
      },
      {
        onSuccess: (saved) => {
          adopt(saved);
          notifySuccess(t('common.savedSuccessfully'));
        },
        onError: (error) =>
          notifyError(
            isApiError(error, 'conflict/stale-version')
              ? t('errors.conflict/stale-version')
              : errorMessage(t, error),
            { autoClose: saveErrorDurationMs },
          ),
      },
    );
  }

  const distributorData =
    database.distributor !== null
      ? [{ value: database.distributor, label: database.distributor_name ?? '' }]
      : (distributors.data ?? []).map((item) => ({ value: item.id, label: item.name }));

  return (
    <>
      <PageHeader
        title={database.name}
        subtitle={t('areas.database')}
        actions={
          // Save sends the general tab; the tags and roles tabs have their own Save, and a
          // header Save there would answer "saved" for edits it does not send.
          tabIndex === 0 ? (
            <LoadingButton
              onClick={handleSave}
              loading={updateMutation.isPending}
              data-testid="save"
            >
              {t('common.save')}
            </LoadingButton>
          ) : null
        }
      />
      <Tabs value={String(tabIndex)} onChange={handleTab} keepMounted={false}>
        <Tabs.List mb="md">
          {tabKeys.map((key, index) => {
            if (!isTabShown(index)) return null;
            const isComing = comingTabIndexes.has(index);
            const tab = (
              <Tabs.Tab
                key={key}
                value={String(index)}
                disabled={isComing}
                data-testid={`database-tab-${key}`}
              >
                {t(`database.tabs.${key}`)}
              </Tabs.Tab>
            );
            return isComing ? (
              <Tooltip key={key} label={t('comingSoon.title')}>
                {tab}
              </Tooltip>
            ) : (
              tab
            );
          })}
        </Tabs.List>
        <Tabs.Panel value="0">
          <Stack gap="lg">
            <Card withBorder radius="md">
              <Group align="flex-start" gap="xl" wrap="wrap">
                <ImageUpload
                  imageUrl={database.illustration_url}
                  name={database.name}
                  label={t('database.changeIllustration')}
                  onUpload={(file, onProgress) =>
                    illustrationMutation.mutateAsync({ file, onProgress })
                  }
                  isSquare
                  testId="database-illustration"
                />
                <Stack gap="sm" style={{ flex: 1, minWidth: 260 }}>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <TextInput
                      label={t('fields.name')}
                      value={values.name}
                      onChange={(event) => setValue('name', event.currentTarget.value)}
                      data-testid="database-name"
                    />
                    <Select
                      label={t('fields.distributor')}
                      placeholder={t('database.noDistributor')}
                      data={distributorData}
                      value={values.distributorId}
                      onChange={(value) => setValue('distributorId', value)}
                      disabled={isDistributorLocked}
                      searchable
                      description={
                        database.distributor === null && isAdmin
                          ? t('database.distributorSetOnce')
                          : undefined
                      }
                      data-testid="database-distributor"
                    />
                    {isAdmin ? (
                      <NumericInput
                        label={t('licence.price')}
                        value={values.licence_price}
                        onChange={(value) => setValue('licence_price', value)}
                        min={0}
                        decimalScale={2}
                        suffix=" €"
                        placeholder={t('licence.inherited')}
                        data-testid="database-licence-price"
                      />
                    ) : null}
                  </SimpleGrid>
                  <NumericInput
                    label={t('database.alertEscalation')}
                    description={t('database.alertEscalationHint')}
                    value={values.alert_escalation_minutes}
                    onChange={(value) => setValue('alert_escalation_minutes', value)}
                    min={escalationMinutesRange.min}
                    max={escalationMinutesRange.max}
                    allowDecimal={false}
                    suffix=" min"
                    data-testid="database-alert-escalation"
                  />
                  <Switch
                    label={t('database.storeAccess')}
                    checked={values.store_access}
                    onChange={(event) => setValue('store_access', event.currentTarget.checked)}
                    disabled={!canManageAccess}
                    data-testid="database-store-access"
                  />
                </Stack>
                <Stack align="center" gap={4}>
                  <ImageUpload
                    imageUrl={database.screen_saver_url}
                    name={database.name}
                    label={t('database.changeScreenSaver')}
                    onUpload={(file, onProgress) =>
                      screenSaverMutation.mutateAsync({ file, onProgress })
                    }
                    isSquare
                    testId="database-screen-saver"
                  />
                  <Text size="xs" c="dimmed">
                    {t('database.screenSaver')}
                  </Text>
                </Stack>
              </Group>
            </Card>
            {database.hidden ? (
              <EmptyState
                title={t('database.hiddenTitle')}
                description={t('database.hiddenDescription')}
                testId="database-hidden"
              />
            ) : (
              <>
                <Card withBorder radius="md">
                  <Group justify="space-between">
                    <Title order={4}>{t('modules.title')}</Title>
                    <Group gap="sm">
                      <Button
                        variant="light"
                        leftSection={<IconAdjustments size={16} />}
                        onClick={() => setIsModulesOpen(true)}
                        data-testid="database-modules"
                      >
                        {t('modules.open')}
                      </Button>
                      {isExpertModeShown ? (
                        <>
                          <Button
                            component={Link}
                            to={`/bulkDatabaseElement?database=${encodeURIComponent(database.id)}`}
                            variant="default"
                            leftSection={<IconTable size={16} />}
                            data-testid="database-bulk-elements"
                          >
                            {t('areas.bulkDatabaseElement')}
                          </Button>
                          <Button
                            component={Link}
                            to={`/bulkDatabaseTask?database=${encodeURIComponent(database.id)}`}
                            variant="default"
                            leftSection={<IconTable size={16} />}
                            data-testid="database-bulk-tasks"
                          >
                            {t('areas.bulkDatabaseTask')}
                          </Button>
                        </>
                      ) : null}
                      <Button
                        component={Link}
                        to={`/allergens?database=${encodeURIComponent(database.id)}`}
                        variant="default"
                        data-testid="database-allergens"
                      >
                        {t('areas.allergens')}
                      </Button>
                    </Group>
                  </Group>
                </Card>
                <Card withBorder radius="md">
                  <Title order={4} mb="sm">
                    {t('database.managers')}
                  </Title>
                  <DatabaseManagers database={database} isDisabled={!canManageAccess} />
                </Card>
              </>
            )}
          </Stack>
        </Tabs.Panel>
        {isTabShown(1) ? (
          <Tabs.Panel value="1">
            <ElementList level="database" databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
        {isTabShown(2) ? (
          <Tabs.Panel value="2">
            <TaskConfigurationList level="database" databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
        {isTabShown(3) ? (
          <Tabs.Panel value="3">
            <StoreTagsEditor databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
        {isTabShown(4) ? (
          <Tabs.Panel value="4">
            <EmployeeRolesEditor databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
        {isTabShown(5) ? (
          <Tabs.Panel value="5">
            <DatabaseShopEditor databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
        {isTabShown(6) ? (
          <Tabs.Panel value="6">
            <RetentionEditor databaseId={database.id} />
          </Tabs.Panel>
        ) : null}
      </Tabs>
      <ModulesDialog
        opened={isModulesOpen}
        onClose={() => setIsModulesOpen(false)}
        hidden={values}
        onConfirm={handleModules}
      />
    </>
  );
}
