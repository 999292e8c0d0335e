import {
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import {
  type ConfigurationModule,
  configurationModules,
  type TaskConfigurationFieldKey,
} from '@mise/shared/tasks/constants';
import { buildRecurrence, parseRecurrence, type RecurrenceModel } from '@mise/shared/tasks/rules';
import type { TaskConfiguration, UpdateTaskConfigurationBody } from '@mise/shared/tasks/schemas';
import { IconArrowLeft, IconCopy, IconPencil } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useHiddenModules } from '../api/get-hidden-modules';
import { taskConfigurationQueryOptions } from '../api/get-task-configuration';
import {
  type SaveTaskConfigurationRequest,
  useDuplicateTaskConfiguration,
  useSaveTaskConfiguration,
} from '../api/save-task-configuration';
import type { TaskConfigurationLevel } from '../api/task-configuration-query-keys';
import { describeRecurrence } from './describe-recurrence';
import { FieldRow } from './field-state-control';
import { ModuleContentEditor } from './module-content-editor';
import { RecurrenceEditor, RecurrenceFields } from './recurrence-editor';
import { SchedulesEditor } from './schedules-editor';
import {
  buildLocksInput,
  buildTaskConfigurationInput,
  draftFromTaskConfiguration,
  isDraftDirty,
  isFieldLocked,
  newTaskConfigurationDraft,
  type TaskConfigurationDraft,
  type TaskConfigurationValidationError,
  validateTaskConfiguration,
} from './task-configuration-form';
import {
  type TaskConfigurationFormApi,
  TaskConfigurationFormProvider,
} from './task-configuration-form-context';
import { TaskTypeSelect } from './task-type-select';

/**
 * What the screen edits:
 * - create: a new configuration of the database or store (`?database=` / `?store=`);
 * - origin: a database configuration seen from a store, saved as the store's own on first save;
 * - edit: an existing database or store configuration (`?id=`).
 */
export type TaskConfigurationEditorMode = 'create' | 'origin' | 'edit';

export type TaskConfigurationEditorProps = {
  level: TaskConfigurationLevel;
  mode: TaskConfigurationEditorMode;
  /** Null in create mode. */
  configuration: TaskConfiguration | null;
  /** The database (database level) or the store (store level). */
  ownerId: string;
  isEditable: boolean;
};

function editPath(level: TaskConfigurationLevel, id: string): string {
  return `/${level === 'database' ? 'taskConf' : 'storeTaskConf'}?id=${encodeURIComponent(id)}`;
}

/** The Tasks tab (index 2) of the database or store screen. */
function backPath(level: TaskConfigurationLevel, ownerId: string): string {
  return level === 'database'
    ? `/database?id=${encodeURIComponent(ownerId)}&tab=2`
    : `/storeDatabase?id=${encodeURIComponent(ownerId)}&tab=2`;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md">
      <Title order={4} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The task configuration screen (spec 001 §2.6), database and store level. */
export function TaskConfigurationEditor({
  level,
  mode,
  configuration,
  ownerId,
  isEditable,
}: TaskConfigurationEditorProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [baseline, setBaseline] = useState<TaskConfigurationDraft>(() =>
    configuration ? draftFromTaskConfiguration(configuration) : newTaskConfigurationDraft(level),
  );
  const [draft, setDraft] = useState<TaskConfigurationDraft>(baseline);
  const [version, setVersion] = useState(configuration?.version ?? 0);
  const [validationError, setValidationError] = useState<TaskConfigurationValidationError | null>(
    null,
  );
  const [recurrenceDialog, setRecurrenceDialog] = useState<RecurrenceModel | null>(null);
  const saveMutation = useSaveTaskConfiguration();
  const hiddenModules = useHiddenModules(level, ownerId, mode === 'create');
  const duplicateMutation = useDuplicateTaskConfiguration(level);
  const configurationId = mode === 'edit' ? (configuration?.id ?? null) : null;
  const isReadOnly = !isEditable;
  const isDirty = !isReadOnly && isDraftDirty(draft, baseline);
  const prompt = useUnsavedChangesPrompt(isDirty);
  const isModuleReadOnly = isReadOnly || mode !== 'create';

  function reset(next: TaskConfiguration) {
    const nextDraft = draftFromTaskConfiguration(next);
    setBaseline(nextDraft);
    setDraft(nextDraft);
    setVersion(next.version);
  }

  const form: TaskConfigurationFormApi = {
    level,
    draft,
    isReadOnly,
    isFieldReadOnly: (key: TaskConfigurationFieldKey) =>
      isReadOnly || isFieldLocked(draft, key, level),
    setValue: (key, value) =>
      setDraft((current) => {
        const field: TaskConfigurationFieldKey = key;
        return {
          ...current,
          values: { ...current.values, [key]: value },
          states:
            level === 'store' && current.states[field] === 'inherited'
              ? { ...current.states, [field]: 'overridden' }
              : current.states,
        };
      }),
    toggleLock: (key) =>
      setDraft((current) => ({
        ...current,
        locks: { ...current.locks, [key]: !current.locks[key] },
      })),
    resetField: (key) =>
      setDraft((current) => ({
        ...current,
        values:
          baseline.states[key] === 'inherited'
            ? { ...current.values, [key]: baseline.values[key] }
            : current.values,
        states: { ...current.states, [key]: 'inherited' },
      })),
  };

  function handleModule(value: string | null) {
    const module = (value as ConfigurationModule | null) ?? null;
    // A new configuration's elements belong to its module: changing it clears them (spec §4).
    setDraft((current) => ({
      ...current,
      module,
      values: {
        ...current.values,
        configuration: { ...current.values.configuration, elementIds: [] },
      },
    }));
  }

  function buildRequest(): SaveTaskConfigurationRequest {
    const isCreation = mode === 'create';
    const fields = buildTaskConfigurationInput(draft, baseline, level, isCreation);
    if (mode === 'create' && level === 'database') {
      return {
        kind: 'createDatabase',
        databaseId: ownerId,
        body: {
          ...fields,
          module: draft.module ?? undefined,
          locks: buildLocksInput(draft, baseline, true),
        },
      };
    }
    if (mode !== 'edit') {
      return {
        kind: 'createStore',
        storeId: ownerId,
        body: {
          ...fields,
          ...(mode === 'origin' && configuration?.origin_id
            ? { origin_id: configuration.origin_id }
            : { module: draft.module ?? undefined }),
        },
      };
    }
    const body: UpdateTaskConfigurationBody = { ...fields, version };
    const locks = level === 'database' ? buildLocksInput(draft, baseline, false) : undefined;
    if (locks) body.locks = locks;
    return { kind: 'update', level, id: configuration?.id ?? '', body };
  }

  async function reload() {
    if (!configuration?.id) return;
    try {
      const fresh = await queryClient.fetchQuery({
        ...taskConfigurationQueryOptions(level, configuration.id),
        staleTime: 0,
      });
      reset(fresh);
    } catch (error) {
      notifyError(errorMessage(t, error), { autoClose: saveErrorToastMs });
    }
  }

  async function handleSave() {
    const error = validateTaskConfiguration(draft);
    if (error) {
      setValidationError(error);
      return;
    }
    try {
      const saved = await saveMutation.mutateAsync(buildRequest());
      notifySuccess(t('errors.saved-successfully'));
      if (mode !== 'edit' && saved.id) {
        // Creation becomes edition: the saved configuration is cached, the URL names it.
        prompt.suppress();
        void navigate(editPath(saved.level, saved.id), { replace: true });
        return;
      }
      reset(saved);
    } catch (caught) {
      if (isApiError(caught, 'conflict/stale-version')) {
        openConfirmDialog({
          title: t('errors.save-error'),
          message: t('errors.conflict/stale-version'),
          confirmLabel: t('taskConfiguration.reload'),
          onConfirm: () => void reload(),
        });
        return;
      }
      notifyError(errorMessage(t, caught), {
        title: t('errors.save-error'),
        autoClose: saveErrorToastMs,
      });
    }
  }

  async function handleDuplicate() {
    if (!configurationId) return;
    try {
      const copy = await duplicateMutation.mutateAsync(configurationId);
      if (copy.id) void navigate(editPath(copy.level, copy.id));
    } catch (caught) {
      notifyError(errorMessage(t, caught), { autoClose: saveErrorToastMs });
    }
  }

  const values = draft.values;
  const isRecurrenceReadOnly = form.isFieldReadOnly('recurrence');
  // A new task offers only the modules its database or store shows: a task of a hidden module
  // is never generated (and the server refuses it). An existing one keeps showing its module.
  const shownModules =
    mode === 'create'
      ? configurationModules.filter((module) => !hiddenModules.data?.includes(module))
      : configurationModules;
  const moduleOptions = shownModules.map((module) => ({
    value: module,
    label: t(`taskConfiguration.modules.${module}`),
  }));
  const title = values.name.trim() || t('taskConfiguration.newTitle');

  return (
    <TaskConfigurationFormProvider value={form}>
      <PageHeader
        title={title}
        subtitle={
          level === 'database'
            ? t('taskConfiguration.databaseLevel')
            : t('taskConfiguration.storeLevel')
        }
        actions={
          <>
            <Button
              component={Link}
              to={backPath(level, ownerId)}
              variant="subtle"
              leftSection={<IconArrowLeft size={16} />}
              data-testid="task-configuration-back"
            >
              {t('taskConfiguration.back')}
            </Button>
            {mode === 'edit' ? (
              <LoadingButton
                variant="default"
                leftSection={<IconCopy size={16} />}
                onClick={handleDuplicate}
                disabled={isReadOnly}
                data-testid="task-configuration-duplicate"
              >
                {t('taskConfiguration.duplicate')}
              </LoadingButton>
            ) : null}
            <LoadingButton
              onClick={handleSave}
              disabled={isReadOnly}
              data-testid="task-configuration-save"
            >
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Stack gap="md">
        <Card withBorder radius="md">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Stack gap="sm">
              <FieldRow field="name">
                <TextInput
                  label={t('taskConfiguration.fields.name')}
                  value={values.name}
                  onChange={(event) => form.setValue('name', event.currentTarget.value)}
                  readOnly={form.isFieldReadOnly('name')}
                  maxLength={200}
                  withAsterisk
                  data-testid="field-name"
                />
              </FieldRow>
              <TaskTypeSelect
                ownerId={ownerId}
                currentType={{
                  name: configuration?.type_name ?? null,
                  color: configuration?.type_color ?? null,
                }}
              />
              <Select
                label={t('taskConfiguration.fields.module')}
                placeholder={t('taskConfiguration.modulePlaceholder')}
                data={moduleOptions}
                value={draft.module}
                onChange={handleModule}
                readOnly={isModuleReadOnly}
                allowDeselect={false}
                withAsterisk
                description={mode === 'create' ? null : t('taskConfiguration.moduleReadOnly')}
                data-testid="field-module"
              />
            </Stack>
            <Stack gap="sm">
              <FieldRow field="description">
                <Textarea
                  label={t('taskConfiguration.fields.description')}
                  value={values.description}
                  onChange={(event) => form.setValue('description', event.currentTarget.value)}
                  readOnly={form.isFieldReadOnly('description')}
                  rows={3}
                  maxLength={5000}
                  data-testid="field-description"
                />
              </FieldRow>
              <FieldRow field="active">
                <Switch
                  label={t('common.active')}
                  checked={values.active}
                  disabled={form.isFieldReadOnly('active')}
                  onChange={(event) => form.setValue('active', event.currentTarget.checked)}
                  data-testid="field-active"
                />
              </FieldRow>
              <FieldRow field="notify_late">
                <Switch
                  label={t('taskConfiguration.fields.notify_late')}
                  checked={values.notify_late}
                  disabled={form.isFieldReadOnly('notify_late')}
                  onChange={(event) => form.setValue('notify_late', event.currentTarget.checked)}
                  data-testid="field-notify_late"
                />
              </FieldRow>
              <FieldRow field="requires_manager">
                <Switch
                  label={t('taskConfiguration.fields.requires_manager')}
                  checked={values.requires_manager}
                  disabled={form.isFieldReadOnly('requires_manager')}
                  onChange={(event) =>
                    form.setValue('requires_manager', event.currentTarget.checked)
                  }
                  data-testid="field-requires_manager"
                />
              </FieldRow>
            </Stack>
          </SimpleGrid>
        </Card>
        <Section
          title={
            draft.module === 'actions'
              ? t('taskConfiguration.sections.actions')
              : t('taskConfiguration.sections.elements')
          }
        >
          <FieldRow field="configuration">
            <ModuleContentEditor
              ownerId={ownerId}
              elementNames={configuration?.element_names ?? {}}
            />
          </FieldRow>
        </Section>
        <Section title={t('taskConfiguration.sections.schedules')}>
          <FieldRow field="schedule">
            <SchedulesEditor
              windows={values.schedule}
              onChange={(windows) => form.setValue('schedule', windows)}
              isReadOnly={form.isFieldReadOnly('schedule')}
            />
          </FieldRow>
        </Section>
        <Section title={t('taskConfiguration.sections.recurrence')}>
          <FieldRow field="recurrence">
            {level === 'database' ? (
              <RecurrenceEditor
                value={values.recurrence}
                onChange={(rule) => form.setValue('recurrence', rule)}
                isReadOnly={isRecurrenceReadOnly}
              />
            ) : (
              <Group gap="sm">
                <Text data-testid="recurrence-summary">
                  {describeRecurrence(parseRecurrence(values.recurrence), t)}
                </Text>
                <Button
                  variant="light"
                  size="xs"
                  leftSection={<IconPencil size={14} />}
                  disabled={isRecurrenceReadOnly}
                  onClick={() => setRecurrenceDialog(parseRecurrence(values.recurrence))}
                  data-testid="recurrence-open"
                >
                  {t('recurrence.edit')}
                </Button>
              </Group>
            )}
          </FieldRow>
        </Section>
      </Stack>
      <Modal
        opened={recurrenceDialog !== null}
        onClose={() => setRecurrenceDialog(null)}
        title={t('recurrence.title')}
        size="lg"
        centered
      >
        {recurrenceDialog ? (
          <Stack>
            <RecurrenceFields
              model={recurrenceDialog}
              onChange={setRecurrenceDialog}
              isReadOnly={false}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRecurrenceDialog(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                onClick={() => {
                  const rule = buildRecurrence(recurrenceDialog);
                  if (rule !== values.recurrence) form.setValue('recurrence', rule);
                  setRecurrenceDialog(null);
                }}
                data-testid="recurrence-apply"
              >
                {t('recurrence.apply')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <MessageDialog
        opened={validationError !== null}
        onClose={() => setValidationError(null)}
        title={t('dialog.error')}
        message={validationError ? t(`errors.${validationError}`) : ''}
        kind="error"
        testId="task-configuration-validation"
      />
    </TaskConfigurationFormProvider>
  );
}
