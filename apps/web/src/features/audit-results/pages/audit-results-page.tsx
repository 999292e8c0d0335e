import { Anchor, Button, Center, Group, Loader, MultiSelect, Stack, Text } from '@mantine/core';
import type { AuditResultSummary } from '@mise/shared/audits/schemas';
import { IconArrowLeft, IconFileSpreadsheet, IconFileTypePdf, IconLock } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { formatDateTime } from '../../../shared/format/date';
import { errorMessage } from '../../../shared/i18n/error-message';
import { isUnexpectedFileTypeError } from '../../../shared/ui/download-file';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError, notifyError } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { downloadResultsCsv, downloadStoredFile } from '../api/download-results';
import { useAudit } from '../api/get-audit';
import { useAuditResultList } from '../api/get-audit-result';
import { useAuditResults } from '../api/get-audit-results';
import { createAuditPdf } from '../api/perform-audit';
import { ResultSummaries } from '../components/result-summaries';
import { ResultsSections } from '../components/results-sections';
import { SectionScoreChart } from '../components/section-score-chart';
import { mergeStructures } from '../model/results-table';

type PdfLink = { resultId: string; label: string; url: string };

function resultLabel(result: AuditResultSummary): string {
  return [result.store.name, formatDateTime(result.end_date), result.auditor.name]
    .filter(Boolean)
    .join(' · ');
}

/** A file name part without characters file systems refuse. */
function safeName(text: string): string {
  return text.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'audit';
}

function SelectedResults({ resultIds }: { resultIds: readonly string[] }) {
  const { t } = useTranslation();
  const { results, isPending, error } = useAuditResultList(resultIds);
  const sections = useMemo(() => mergeStructures(results), [results]);

  if (error) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, error)} />;
  }
  if (isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <ResultSummaries results={results} />
      <SectionScoreChart sections={sections} results={results} />
      <ResultsSections sections={sections} results={results} />
    </Stack>
  );
}

/**
 * /auditingResults?audit=<id> (spec 002 §2, §8, §9): back, a multi-select of the submitted
 * results, their PDF (rendered once, stored) and CSV, each result's score, a per-section score
 * chart, and per-section tables of questions and answers. Admins and managers only (the API
 * answers 403 to others: the permission text shows).
 */
export function AuditResultsPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const auditId = searchParams.get('audit');
  const audit = useAudit(auditId);
  const results = useAuditResults(auditId);
  const [selected, setSelected] = useState<string[]>([]);
  const [pdfLinks, setPdfLinks] = useState<PdfLink[]>([]);
  const summaries = results.data ?? [];
  const auditName = audit.data?.name ?? '';
  // Kept in the order of the list (newest first), whatever the order of picking.
  const selectedIds = summaries.map((item) => item.id).filter((id) => selected.includes(id));
  const selectedSummaries = summaries.filter((item) => selected.includes(item.id));

  const back = (
    <Button
      component={Link}
      to="/auditing"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      data-testid="results-back"
    >
      {t('auditResults.backToAudits')}
    </Button>
  );

  async function handlePdf() {
    const links: PdfLink[] = [];
    for (const summary of selectedSummaries) {
      try {
        const url = await createAuditPdf(summary.path);
        const label = resultLabel(summary);
        links.push({ resultId: summary.id, label, url });
        downloadStoredFile(url, `${safeName(`${auditName} ${summary.store.name}`)}.pdf`);
      } catch (error) {
        notifyApiError(error);
      }
    }
    setPdfLinks(links);
  }

  async function handleCsv() {
    try {
      await downloadResultsCsv(auditId ?? '', selectedIds, `${safeName(auditName)}.csv`);
    } catch (error) {
      if (isUnexpectedFileTypeError(error)) notifyError(t('auditResults.results.wrongType'));
      else notifyApiError(error);
    }
  }

  let content: ReactNode;
  if (!auditId) {
    content = <EmptyState title={t('auditResults.missingAudit')} />;
  } else if (results.isPending) {
    content = (
      <Center py="xl">
        <Loader />
      </Center>
    );
  } else if (results.isError) {
    content =
      isApiError(results.error) && results.error.status === 403 ? (
        <EmptyState
          title={t('errors.permission/denied')}
          icon={<IconLock size={28} />}
          testId="results-denied"
        />
      ) : (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, results.error)} />
      );
  } else if (summaries.length === 0) {
    content = (
      <EmptyState title={t('auditResults.messages.audit-no-results')} testId="results-none" />
    );
  } else {
    content = (
      <Stack gap="md">
        <MultiSelect
          label={t('auditResults.results.select')}
          placeholder={
            selected.length === 0 ? t('auditResults.results.selectPlaceholder') : undefined
          }
          data={summaries.map((item) => ({ value: item.id, label: resultLabel(item) }))}
          value={selected}
          onChange={(value) => {
            setSelected(value);
            setPdfLinks([]);
          }}
          searchable
          clearable
          hidePickedOptions={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="results-select"
        />
        <Group gap="sm">
          <LoadingButton
            variant="light"
            leftSection={<IconFileTypePdf size={18} />}
            disabled={selectedIds.length === 0}
            onClick={handlePdf}
            data-testid="results-pdf"
          >
            {t('auditResults.results.openPdf')}
          </LoadingButton>
          <LoadingButton
            variant="light"
            leftSection={<IconFileSpreadsheet size={18} />}
            disabled={selectedIds.length === 0}
            onClick={handleCsv}
            data-testid="results-csv"
          >
            {t('auditResults.results.openCsv')}
          </LoadingButton>
        </Group>
        {pdfLinks.length > 0 ? (
          <Stack gap={2} data-testid="results-pdf-links">
            {pdfLinks.map((link) => (
              <Anchor key={link.resultId} href={link.url} target="_blank" rel="noopener" size="sm">
                {t('auditResults.results.pdfOf', { label: link.label })}
              </Anchor>
            ))}
          </Stack>
        ) : null}
        {selectedIds.length === 0 ? (
          <EmptyState
            title={t('auditResults.messages.select-results')}
            testId="results-select-empty"
          />
        ) : (
          <SelectedResults resultIds={selectedIds} />
        )}
      </Stack>
    );
  }

  return (
    <>
      <PageHeader
        title={auditName || t('areas.auditingResults')}
        subtitle={auditName ? t('areas.auditingResults') : undefined}
        actions={back}
      />
      {content}
      {results.isSuccess && summaries.length > 0 ? (
        <Text size="xs" c="dimmed" mt="md">
          {t('auditResults.results.count', { count: summaries.length })}
        </Text>
      ) : null}
    </>
  );
}
