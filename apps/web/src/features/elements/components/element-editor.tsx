import { Button, Card, Group, Stack, Switch, Tabs, TextInput } from '@mantine/core';
import {
  type ElementLockKey,
  elementModuleTabs,
  saveErrorToastMs,
} from '@mise/shared/catalogue/constants';
import { type ElementValidationError, validateElement } from '@mise/shared/catalogue/rules';
import type {
  Attachment,
  Element,
  ElementValues,
  UpdateElementBody,
} from '@mise/shared/catalogue/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { IconArrowLeft, IconCopy } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
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
import { useResumableUpload } from '../../../shared/upload/use-resumable-upload';
import { useDuplicateElement } from '../api/duplicate-element';
import type { ElementLevel } from '../api/element-query-keys';
import { elementQueryOptions } from '../api/get-element';
import { cacheSavedElement, type SaveElementRequest, useSaveElement } from '../api/save-element';
import { AttachmentsTab } from './attachments-tab';
import {
  attachmentInputs,
  attachmentsChanged,
  buildElementInput,
  buildLocksInput,
  buildProbeInput,
  draftFromElement,
  type ElementDraft,
  isDraftDirty,
  isFieldLocked,
  labelInputs,
  labelsChanged,
  newElementDraft,
} from './element-form';
import { type ElementFormApi, ElementFormProvider } from './element-form-context';
import { ElementTypeSelect } from './element-type-select';
import { FieldRow } from './field-state-control';
import { IllustrationPicker } from './illustration-picker';
import { LabelsTab } from './labels-tab';
import {
  OilsTab,
  RecipeTab,
  TemperatureControlTab,
  TemperaturesTab,
  TraceabilityTab,
} from './module-fields';

/**
 * What the screen edits:
 * - create: a new element of the database or store (`?database=` / `/newElement?store=`);
 * - origin: a database element seen from a store, saved as the store's own on first save;
 * - edit: an existing database or store element (`?id=`).
 */
export type ElementEditorMode = 'create' | 'origin' | 'edit';

export type ElementEditorProps = {
  level: ElementLevel;
  mode: ElementEditorMode;
  /** Null in create mode. */
  element: Element | null;
  /** The database (database level) or the store (store level). */
  ownerId: string;
  hiddenModules: readonly ModuleKey[];
  isEditable: boolean;
};

const tabPanels = {
  temperatures: TemperaturesTab,
  labels: LabelsTab,
  traceability: TraceabilityTab,
  oils: OilsTab,
  temperature_control: TemperatureControlTab,
  encyclopedia: AttachmentsTab,
  recipe: RecipeTab,
} as const;

function editPath(level: ElementLevel, id: string): string {
  return `/${level === 'database' ? 'databaseElement' : 'storeElement'}?id=${encodeURIComponent(id)}`;
}

function appendAttachments(current: Attachment[], added: readonly Attachment[]): Attachment[] {
  const ids = new Set(current.map((attachment) => attachment.id));
  return [...current, ...added.filter((attachment) => !ids.has(attachment.id))];
}

/** The Elements tab (index 1) of the database or store screen. */
function backPath(level: ElementLevel, ownerId: string): string {
  return level === 'database'
    ? `/database?id=${encodeURIComponent(ownerId)}&tab=1`
    : `/storeDatabase?id=${encodeURIComponent(ownerId)}&tab=1`;
}

/** The element edit screen (spec 001 §2.5), database and store level. */
export function ElementEditor({
  level,
  mode,
  element,
  ownerId,
  hiddenModules,
  isEditable,
}: ElementEditorProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [baseline, setBaseline] = useState<ElementDraft>(() =>
    element ? draftFromElement(element) : newElementDraft(level),
  );
  const [draft, setDraft] = useState<ElementDraft>(baseline);
  const [version, setVersion] = useState(element?.version ?? 0);
  const [validationError, setValidationError] = useState<ElementValidationError | null>(null);
  const [uploadCount, setUploadCount] = useState(0);
  const attachmentUpload = useResumableUpload();
  const versionRef = useRef(version);
  versionRef.current = version;
  const saveMutation = useSaveElement();
  const duplicateMutation = useDuplicateElement(level);
  const elementId = mode === 'edit' ? (element?.id ?? null) : null;
  const isReadOnly = !isEditable;
  const isDirty = !isReadOnly && isDraftDirty(draft, baseline);
  const prompt = useUnsavedChangesPrompt(isDirty);
  const visibleTabs = elementModuleTabs.filter(
    (tab) => tab.module === null || !hiddenModules.includes(tab.module),
  );
  const [activeTab, setActiveTab] = useState<string | null>(visibleTabs[0]?.tab ?? null);

  function reset(next: Element) {
    const nextDraft = draftFromElement(next);
    setBaseline(nextDraft);
    setDraft(nextDraft);
    setVersion(next.version);
  }

  const form: ElementFormApi = {
    level,
    ownerId,
    savedProbeId: baseline.probeId,
    draft,
    isReadOnly,
    elementId,
    isFieldReadOnly: (key: ElementLockKey) => isReadOnly || isFieldLocked(draft, key, level),
    setValue: (key, value) =>
      setDraft((current) => ({
        ...current,
        values: { ...current.values, [key]: value },
        states:
          level === 'store' && current.states[key] === 'inherited'
            ? { ...current.states, [key]: 'overridden' }
            : current.states,
      })),
    toggleLock: (key) =>
      setDraft((current) => ({
        ...current,
        locks: { ...current.locks, [key]: !current.locks[key] },
      })),
    resetField: (key) =>
      setDraft((current) => {
        const wasInherited = baseline.states[key] === 'inherited';
        const isValueField = key in current.values;
        return {
          ...current,
          values:
            wasInherited && isValueField
              ? { ...current.values, [key]: baseline.values[key as keyof ElementValues] }
              : current.values,
          states: { ...current.states, [key]: 'inherited' },
        };
      }),
    update: (change) => setDraft(change),
    version,
    runUpload: async (task) => {
      setUploadCount((count) => count + 1);
      try {
        return await task();
      } finally {
        setUploadCount((count) => count - 1);
      }
    },
    acceptServerElement: (server) => {
      setVersion(server.version);
      versionRef.current = server.version;
      cacheSavedElement(queryClient, server);
      // Attachments the server has and the screen never saw (just uploaded) join both copies;
      // those removed on screen but not saved yet stay removed.
      const known = new Set(baseline.attachments.map((attachment) => attachment.id));
      const added = server.attachments.filter((attachment) => !known.has(attachment.id));
      const takeServer = (current: ElementDraft): ElementDraft => ({
        ...current,
        values: {
          ...current.values,
          illustration_url: server.illustration_url,
          allergen_illustration_url: server.allergen_illustration_url,
        },
        // At store level an upload overrides the image (or the attachments): take its state.
        states: {
          ...current.states,
          illustration_url: server.field_states.illustration_url ?? current.states.illustration_url,
          allergen_illustration_url:
            server.field_states.allergen_illustration_url ??
            current.states.allergen_illustration_url,
          attachments: server.field_states.attachments ?? current.states.attachments,
        },
        attachments: appendAttachments(current.attachments, added),
      });
      setBaseline(takeServer);
      setDraft(takeServer);
    },
    attachmentUpload,
    acceptUploadedAttachment: (attachment) => {
      const take = (current: ElementDraft): ElementDraft => ({
        ...current,
        attachments: appendAttachments(current.attachments, [attachment]),
      });
      setBaseline(take);
      setDraft(take);
    },
  };

  function buildRequest(): SaveElementRequest {
    const isCreation = mode === 'create';
    const fields = buildElementInput(draft, baseline, level, isCreation);
    const probe = buildProbeInput(draft, baseline, level, isCreation);
    const canWriteLabels = !isFieldLocked(draft, 'labels', level);
    const canWriteAttachments = !isFieldLocked(draft, 'attachments', level);
    const labels =
      canWriteLabels && (isCreation || labelsChanged(draft, baseline))
        ? labelInputs(draft.labels)
        : undefined;
    if (mode === 'create' && level === 'database') {
      return {
        kind: 'createDatabase',
        databaseId: ownerId,
        body: {
          ...fields,
          name: draft.values.name.trim(),
          locks: buildLocksInput(draft, baseline, true),
          ...(labels ? { labels } : {}),
        },
      };
    }
    if (mode !== 'edit') {
      return {
        kind: 'createStore',
        storeId: ownerId,
        body: {
          ...fields,
          ...(mode === 'origin' && element?.origin_id ? { origin_id: element.origin_id } : {}),
          ...(labels ? { labels } : {}),
          ...probe,
        },
      };
    }
    const body: UpdateElementBody = { ...fields, ...probe, version: versionRef.current };
    const locks = level === 'database' ? buildLocksInput(draft, baseline, false) : undefined;
    if (locks) body.locks = locks;
    if (labels) body.labels = labels;
    if (canWriteAttachments && attachmentsChanged(draft, baseline))
      body.attachments = attachmentInputs(draft.attachments);
    return { kind: 'update', level, id: element?.id ?? '', body };
  }

  async function reload() {
    if (!element?.id) return;
    try {
      const fresh = await queryClient.fetchQuery({
        ...elementQueryOptions(level, element.id),
        staleTime: 0,
      });
      reset(fresh);
    } catch (error) {
      notifyError(errorMessage(t, error), { autoClose: saveErrorToastMs });
    }
  }

  async function handleSave() {
    if (uploadCount > 0) return;
    // A store cannot choose the type its database locks: no type check then (docs/decisions.md).
    const isTypeRequired = level === 'store' && draft.states.type_id !== 'locked';
    const error = validateElement(draft.values, isTypeRequired ? 'store' : 'database');
    if (error) {
      setValidationError(error);
      return;
    }
    try {
      const saved = await saveMutation.mutateAsync(buildRequest());
      notifySuccess(t('errors.saved-successfully'));
      if (mode !== 'edit' && saved.id) {
        // Creation becomes edition: the saved element is in the cache, the URL names it.
        prompt.suppress();
        navigate(editPath(saved.level, saved.id), { replace: true });
        return;
      }
      reset(saved);
    } catch (caught) {
      if (isApiError(caught, 'conflict/stale-version')) {
        openConfirmDialog({
          title: t('errors.save-error'),
          message: t('errors.conflict/stale-version'),
          confirmLabel: t('element.reload'),
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
    if (!elementId) return;
    try {
      const copy = await duplicateMutation.mutateAsync(elementId);
      if (copy.id) navigate(editPath(copy.level, copy.id));
    } catch (caught) {
      notifyError(errorMessage(t, caught), { autoClose: saveErrorToastMs });
    }
  }

  const title = draft.values.name.trim() || t('element.newTitle');
  return (
    <ElementFormProvider value={form}>
      <PageHeader
        title={title}
        subtitle={level === 'database' ? t('element.databaseLevel') : t('element.storeLevel')}
        actions={
          <>
            <Button
              component={Link}
              to={backPath(level, ownerId)}
              variant="subtle"
              leftSection={<IconArrowLeft size={16} />}
              data-testid="element-back"
            >
              {t('element.back')}
            </Button>
            {mode === 'edit' ? (
              <LoadingButton
                variant="default"
                leftSection={<IconCopy size={16} />}
                onClick={handleDuplicate}
                disabled={isReadOnly}
                data-testid="element-duplicate"
              >
                {t('element.duplicate')}
              </LoadingButton>
            ) : null}
            <LoadingButton
              onClick={handleSave}
              disabled={isReadOnly || uploadCount > 0}
              data-testid="element-save"
            >
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Card withBorder mb="md">
        <Group align="flex-start" wrap="wrap" gap="xl">
          <IllustrationPicker />
          <Stack gap="sm" style={{ flex: 1, minWidth: 260 }}>
            <FieldRow field="name">
              <TextInput
                label={t('element.fields.name')}
                value={draft.values.name}
                onChange={(event) => form.setValue('name', event.currentTarget.value)}
                readOnly={form.isFieldReadOnly('name')}
                withAsterisk
                data-testid="field-name"
              />
            </FieldRow>
            <ElementTypeSelect ownerId={ownerId} currentTypeName={element?.type_name ?? null} />
            <FieldRow field="active">
              <Switch
                label={t('common.active')}
                checked={draft.values.active}
                disabled={form.isFieldReadOnly('active')}
                onChange={(event) => form.setValue('active', event.currentTarget.checked)}
                data-testid="field-active"
              />
            </FieldRow>
          </Stack>
        </Group>
      </Card>
      <Tabs value={activeTab} onChange={setActiveTab} keepMounted={false}>
        <Tabs.List mb="md">
          {visibleTabs.map((tab) => (
            <Tabs.Tab key={tab.tab} value={tab.tab} data-testid={`element-tab-${tab.tab}`}>
              {t(`element.tabs.${tab.tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {visibleTabs.map((tab) => {
          const Panel = tabPanels[tab.tab];
          return (
            <Tabs.Panel key={tab.tab} value={tab.tab}>
              <Panel />
            </Tabs.Panel>
          );
        })}
      </Tabs>
      <MessageDialog
        opened={validationError !== null}
        onClose={() => setValidationError(null)}
        title={t('dialog.error')}
        message={validationError ? t(`errors.${validationError}`) : ''}
        kind="error"
        testId="element-validation"
      />
    </ElementFormProvider>
  );
}
