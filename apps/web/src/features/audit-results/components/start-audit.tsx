import { Alert, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Audit } from '@mise/shared/audits/schemas';
import { IconAlertCircle, IconPlayerPlay, IconRotateClockwise } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError } from '../../../shared/ui/notify';
import { auditStoresLimit, useAuditStores } from '../api/get-audit-stores';
import { useInProgressResults } from '../api/get-in-progress-results';
import { startAuditResult } from '../api/perform-audit';

type StartAuditProps = {
  audit: Audit;
  /** The result to perform (started or resumed). */
  onOpen: (resultId: string) => void;
};

/**
 * Before performing: the caller's results in progress for this audit (resume one), or a store
 * of the audit's database to start (or resume) the result there.
 */
export function StartAudit({ audit, onOpen }: StartAuditProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  // Choosing a store writes its label in the search box: that is not a search.
  const [debouncedSearch] = useDebouncedValue(search === chosen?.label ? '' : search, 300);
  const storeId = chosen?.value ?? null;
  const stores = useAuditStores(audit.database_id, debouncedSearch);
  const inProgress = useInProgressResults(audit.id);
  const isOpen = audit.published && audit.active;
  const found = (stores.data?.items ?? []).map((store) => ({
    value: store.id,
    label: store.city ? `${store.name} — ${store.city}` : store.name,
  }));
  const storeOptions =
    chosen && !found.some((option) => option.value === chosen.value) ? [chosen, ...found] : found;
  const resumable = inProgress.data ?? [];

  async function handleStart() {
    if (!storeId) return;
    try {
      const result = await startAuditResult(audit.id, storeId);
      onOpen(result.id);
    } catch (error) {
      notifyApiError(error);
    }
  }

  return (
    <Stack gap="md" data-testid="perform-start">
      {!isOpen ? (
        <Alert color="orange" icon={<IconAlertCircle size={18} />} data-testid="perform-closed">
          {t('auditResults.perform.closed')}
        </Alert>
      ) : null}

      {resumable.length > 0 ? (
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h4" mb="sm">
            {t('auditResults.perform.resumeTitle')}
          </Title>
          <Stack gap="sm">
            {resumable.map((result) => (
              <Group
                key={result.id}
                justify="space-between"
                gap="xs"
                wrap="wrap"
                data-testid="perform-resumable"
              >
                <Stack gap={0} miw={0} style={{ flex: 1 }}>
                  <Text fw={600} truncate>
                    {result.store.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('auditResults.perform.startedAt', {
                      date: formatDateTime(result.start_date),
                      answered: result.answered_count,
                    })}
                  </Text>
                </Stack>
                <Button
                  variant="light"
                  leftSection={<IconRotateClockwise size={16} />}
                  onClick={() => onOpen(result.id)}
                  aria-label={t('auditResults.perform.resumeStore', { store: result.store.name })}
                >
                  {t('auditResults.perform.resume')}
                </Button>
              </Group>
            ))}
          </Stack>
        </Card>
      ) : null}

      {isOpen ? (
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h4" mb="sm">
            {t('auditResults.perform.startTitle')}
          </Title>
          <Stack gap="sm">
            <Select
              label={t('auditResults.perform.store')}
              placeholder={t('auditResults.perform.storePlaceholder')}
              data={storeOptions}
              value={storeId}
              onChange={(value, option) => setChosen(value ? option : null)}
              searchable
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options }) => options}
              nothingFoundMessage={
                stores.isFetching ? t('common.loading') : t('auditResults.perform.noStore')
              }
              size="md"
              comboboxProps={{ withinPortal: true }}
              data-testid="perform-store"
            />
            {stores.data && stores.data.total > auditStoresLimit ? (
              <Text size="xs" c="dimmed">
                {t('auditResults.perform.refineSearch', { total: stores.data.total })}
              </Text>
            ) : null}
            <Group>
              <LoadingButton
                size="md"
                leftSection={<IconPlayerPlay size={18} />}
                disabled={!storeId}
                onClick={handleStart}
                data-testid="perform-begin"
              >
                {t('auditResults.perform.begin')}
              </LoadingButton>
            </Group>
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
