import {
  Alert,
  Button,
  Checkbox,
  Group,
  List,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CopyResponse } from '@mise/shared/catalogue/bulk';
import { type BulkLevel, validateExport } from '@mise/shared/catalogue/bulk-rules';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { useSelectionDatabases } from '../../../shared/selection/get-selection-databases';
import { useSelectionStores } from '../../../shared/selection/get-selection-stores';
import { notifySuccess } from '../../../shared/ui/notify';
import type { BulkKind } from '../api/bulk-query-keys';
import { copyCatalogue } from '../api/copy-catalogue';

type ExportDialogProps = {
  kind: BulkKind;
  level: BulkLevel;
  /** The database or store being edited. */
  ownerId: string;
  opened: boolean;
  onClose: () => void;
  /** The checked rows' ids (exportObjectIds), read when the export starts. */
  getObjectIds: () => string[];
  /** How many rows are checked. */
  checkedCount: number;
  /** Saves the grid first (spec 001 §4); false when the save failed (nothing is copied). */
  saveFirst: () => Promise<boolean>;
};

type Step =
  | { name: 'form' }
  | { name: 'confirm' }
  | { name: 'running' }
  | { name: 'done'; result: CopyResponse }
  | { name: 'failed'; message: string; isSaveFailure: boolean };

const searchDebounceMs = 300;

/** A fresh idempotency key for one export attempt. */
function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The export modal (spec 001 §2.9, §4, §5, §8): a target database (or, at store level, store)
 * other than the one being edited, whether to copy attachments, a confirmation stating the
 * count and the target, then the grid is saved and the copy call made. A retry after a failure
 * sends the same idempotency key, so the server never copies twice.
 */
export function ExportDialog(props: ExportDialogProps) {
  const { t } = useTranslation();
  const { kind, level, ownerId, opened, checkedCount } = props;
  const [targetId, setTargetId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [isCopyingAttachments, setIsCopyingAttachments] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ name: 'form' });
  const idempotencyKeyRef = useRef<string | null>(null);
  const databases = useSelectionDatabases(debouncedSearch, opened && level === 'database');
  const stores = useSelectionStores(debouncedSearch, opened && level === 'store');
  const targets = (level === 'database' ? databases.data : stores.data) ?? [];
  const [targetName, setTargetName] = useState('');
  const options = targets.map((target) => ({ value: target.id, label: target.name }));
  if (targetId && !options.some((option) => option.value === targetId))
    options.push({ value: targetId, label: targetName });

  function close() {
    if (step.name === 'running') return;
    setTargetId(null);
    setTargetName('');
    setSearch('');
    setIsCopyingAttachments(false);
    setError(null);
    setStep({ name: 'form' });
    idempotencyKeyRef.current = null;
    props.onClose();
  }

  function handleTarget(value: string | null) {
    setTargetId(value);
    setTargetName(options.find((option) => option.value === value)?.label ?? '');
    setError(null);
    idempotencyKeyRef.current = null;
  }

  function handleExport() {
    const problem = validateExport({ kind, level, currentId: ownerId, targetId, checkedCount });
    if (problem) {
      setError(t(problem));
      return;
    }
    setError(null);
    setStep({ name: 'confirm' });
  }

  async function run(isRetry: boolean) {
    if (!targetId) return;
    // One key per export attempt; a retry of a failed attempt sends the same one.
    if (!isRetry || !idempotencyKeyRef.current) idempotencyKeyRef.current = newIdempotencyKey();
    const key = idempotencyKeyRef.current;
    setStep({ name: 'running' });
    const isSaved = await props.saveFirst();
    if (!isSaved) {
      setStep({ name: 'failed', message: t('bulk.export.saveFailed'), isSaveFailure: true });
      return;
    }
    const objectIds = props.getObjectIds();
    if (objectIds.length === 0) {
      setStep({ name: 'form' });
      setError(
        t(kind === 'elements' ? 'bulk.export.noElementChecked' : 'bulk.export.noTaskChecked'),
      );
      return;
    }
    try {
      const result = await copyCatalogue(
        kind,
        level,
        { sourceId: ownerId, targetId, objectIds, copyAttachments: isCopyingAttachments },
        key,
      );
      idempotencyKeyRef.current = null;
      notifySuccess(t(kind === 'elements' ? 'bulk.export.doneElements' : 'bulk.export.doneTasks'));
      setStep({ name: 'done', result });
    } catch (caught) {
      setStep({ name: 'failed', message: errorMessage(t, caught), isSaveFailure: false });
    }
  }

  const title = kind === 'elements' ? t('bulk.export.titleElements') : t('bulk.export.titleTasks');

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeOnEscape={step.name !== 'running'}
      withCloseButton={step.name !== 'running'}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="bulk-export-dialog"
    >
      {step.name === 'form' ? (
        <Stack gap="sm">
          <Select
            label={
              level === 'database' ? t('bulk.export.targetDatabase') : t('bulk.export.targetStore')
            }
            placeholder={t('bulk.export.targetPlaceholder')}
            data={options}
            value={targetId}
            onChange={handleTarget}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('common.nothingFound')}
            clearable
            data-testid="bulk-export-target"
          />
          <Checkbox
            label={t('bulk.export.copyAttachments')}
            checked={isCopyingAttachments}
            onChange={(event) => {
              setIsCopyingAttachments(event.currentTarget.checked);
              idempotencyKeyRef.current = null;
            }}
            data-testid="bulk-export-attachments"
          />
          <Text size="sm" c="dimmed">
            {kind === 'elements'
              ? t('bulk.export.checkedElements', { count: checkedCount })
              : t('bulk.export.checkedTasks', { count: checkedCount })}
          </Text>
          {error ? (
            <Alert color="red" role="alert" data-testid="bulk-export-error">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button onClick={handleExport} data-testid="bulk-export-submit">
              {t('bulk.export.submit')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {step.name === 'confirm' ? (
        <Stack gap="sm">
          <Text size="sm" data-testid="bulk-export-confirm-text">
            {kind === 'elements'
              ? t('bulk.export.confirmElements', { count: checkedCount, target: targetName })
              : t('bulk.export.confirmTasks', { count: checkedCount, target: targetName })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep({ name: 'form' })}>
              {t('bulk.export.back')}
            </Button>
            <Button
              onClick={() => void run(false)}
              data-autofocus
              data-testid="bulk-export-confirm"
            >
              {t('common.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {step.name === 'running' ? (
        <Group gap="sm" role="status" data-testid="bulk-export-progress">
          <Loader size="sm" />
          <Text size="sm">{t('bulk.export.running')}</Text>
        </Group>
      ) : null}
      {step.name === 'failed' ? (
        <Stack gap="sm">
          <Alert color="red" role="alert" data-testid="bulk-export-failed">
            {step.message}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.close')}
            </Button>
            <Button onClick={() => void run(!step.isSaveFailure)} data-testid="bulk-export-retry">
              {t('bulk.export.retry')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {step.name === 'done' ? (
        <ExportSummary kind={kind} result={step.result} onClose={close} />
      ) : null}
    </Modal>
  );
}

function ExportSummary({
  kind,
  result,
  onClose,
}: {
  kind: BulkKind;
  result: CopyResponse;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="bulk-export-summary">
      <Alert color="teal" role="status">
        {t(kind === 'elements' ? 'bulk.export.doneElements' : 'bulk.export.doneTasks')}
      </Alert>
      <Text size="sm" data-testid="bulk-export-created">
        {t('bulk.export.created', { count: result.created.length })}
      </Text>
      {result.created_types.length > 0 ? (
        <Text size="sm">
          {t('bulk.export.createdTypes', { count: result.created_types.length })}
        </Text>
      ) : null}
      {result.attachments_copied > 0 ? (
        <Text size="sm">
          {t('bulk.export.attachmentsCopied', { count: result.attachments_copied })}
        </Text>
      ) : null}
      {result.skipped.length > 0 ? (
        <>
          <Text size="sm" fw={600}>
            {t('bulk.export.skipped', { count: result.skipped.length })}
          </Text>
          <List size="sm" data-testid="bulk-export-skipped">
            {result.skipped.map((skipped) => (
              <List.Item key={skipped.source_id}>
                {t('bulk.export.skippedItem', {
                  name: skipped.name ?? skipped.source_id,
                  reason: t(`bulk.export.reasons.${skipped.reason}`),
                })}
                {skipped.missing?.length
                  ? ` ${t('bulk.export.missing', { names: skipped.missing.join(', ') })}`
                  : ''}
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onClose} data-testid="bulk-export-close">
          {t('common.close')}
        </Button>
      </Group>
    </Stack>
  );
}
