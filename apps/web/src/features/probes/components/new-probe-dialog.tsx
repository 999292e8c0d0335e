import { Alert, Button, Code, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { probeUidSchema } from '@mise/shared/probes/schemas';
import { IconCopy, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';
import { type CreatedProbe, useCreateProbe } from '../api/create-probe';
import type { ProbeStoreOption } from '../api/get-probe-stores';

type NewProbeDialogProps = {
  opened: boolean;
  onClose: () => void;
  stores: readonly ProbeStoreOption[];
};

type Draft = { probeUID: string; name: string; storeId: string | null };
const emptyDraft: Draft = { probeUID: '', name: '', storeId: null };

/**
 * Registers a probe (admin): UID, name, owner store. The answer's secret (the bearer of the
 * probe's postUrl) is shown once, with a copy button; the server keeps only its hash.
 */
export function NewProbeDialog({ opened, onClose, stores }: NewProbeDialogProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedProbe | null>(null);
  const createMutation = useCreateProbe();

  function handleClose() {
    setDraft(emptyDraft);
    setError(null);
    setCreated(null);
    createMutation.reset();
    onClose();
  }

  function handleSubmit() {
    if (draft.probeUID.trim() === '' || draft.name.trim() === '') {
      setError(t('forms.fillRequired'));
      return;
    }
    if (!probeUidSchema.safeParse(draft.probeUID).success) {
      setError(t('probes.invalidUid'));
      return;
    }
    setError(null);
    createMutation.mutate(
      { probeUID: draft.probeUID.trim(), name: draft.name.trim(), storeId: draft.storeId },
      {
        onSuccess: (result) => setCreated(result),
        onError: (failure) => setError(errorMessage(t, failure)),
      },
    );
  }

  async function handleCopy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      notifySuccess(t('account.tokenCopied'));
    } catch {
      notifyError(t('account.tokenCopyFailed'));
    }
  }

  if (created) {
    return (
      <Modal
        opened={opened}
        onClose={handleClose}
        title={t('probes.secretTitle', { name: created.probe.name })}
        centered
        closeOnEscape
        data-testid="probe-secret-dialog"
      >
        <Stack gap="sm">
          <Alert color="yellow" icon={<IconKey size={18} />} data-testid="probe-secret-warning">
            {t('probes.secretShownOnce')}
          </Alert>
          <Code block data-testid="probe-secret" style={{ wordBreak: 'break-all' }}>
            {created.secret}
          </Code>
          <Text size="sm">{t('probes.postUrl')}</Text>
          <Code block data-testid="probe-post-url" style={{ wordBreak: 'break-all' }}>
            {created.probe.postUrl}
          </Code>
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose} data-testid="probe-secret-close">
              {t('common.close')}
            </Button>
            <Button
              leftSection={<IconCopy size={16} />}
              onClick={handleCopy}
              data-autofocus
              data-testid="probe-secret-copy"
            >
              {t('probes.copySecret')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('probes.newTitle')}
      primaryLabel={t('common.create')}
      onPrimary={handleSubmit}
      isPrimaryLoading={createMutation.isPending}
      primaryTestId="new-probe-submit"
      testId="new-probe-dialog"
      footer={<ErrorText testId="new-probe-error">{error}</ErrorText>}
    >
      <TextInput
        label={t('probes.uid')}
        description={t('probes.uidHint')}
        required
        value={draft.probeUID}
        onChange={(event) => setDraft({ ...draft, probeUID: event.currentTarget.value })}
        data-testid="new-probe-uid"
        data-autofocus
      />
      <TextInput
        label={t('probes.name')}
        required
        value={draft.name}
        onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        data-testid="new-probe-name"
      />
      <Select
        label={t('probes.store')}
        placeholder={t('probes.noStore')}
        data={stores.map((store) => ({ value: store.id, label: store.name }))}
        value={draft.storeId}
        onChange={(storeId) => setDraft({ ...draft, storeId })}
        searchable
        clearable
        nothingFoundMessage={t('common.nothingFound')}
        data-testid="new-probe-store"
      />
    </FormDialog>
  );
}
