import { Group, Loader, Stack, Text } from '@mantine/core';
import { allergensPdfMaxElements } from '@mise/shared/catalogue/constants';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { currentLanguage } from '../../../shared/i18n/i18n';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError, notifyError } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useDownloadAllergensPdf } from '../api/download-allergens-pdf';
import { type AllergenSource, useAllergenTable } from '../api/get-allergen-table';
import { AllergenLegend, AllergenTable, groupsWithAllergens } from '../components/allergen-table';

/** /allergens?database=<id> or /allergens?store=<id> (spec 001 §2.8). */
/** GET /api/pdf/allergens refused for its row cap (issue on `elements`). */
function isTooManyElements(error: { issues: readonly { path: string }[] }): boolean {
  return error.issues.some((issue) => issue.path === 'elements');
}

export function AllergensPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const databaseId = searchParams.get('database');
  const storeId = searchParams.get('store');
  const source: AllergenSource | null = databaseId ? { databaseId } : storeId ? { storeId } : null;
  const table = useAllergenTable(source);
  const pdfMutation = useDownloadAllergensPdf();

  if (!source) {
    return (
      <>
        <PageHeader title={t('areas.allergens')} />
        <EmptyState title={t('allergens.noneSelected')} />
      </>
    );
  }

  function handleDownload() {
    if (!source) return;
    pdfMutation.mutate(
      { source, language: currentLanguage() },
      {
        onError: (error) => {
          // Beyond the server's row cap the generic "invalid request" would not say why.
          if (isApiError(error, 'validation/invalid-input') && isTooManyElements(error)) {
            notifyError(t('allergens.tooManyForPdf', { max: allergensPdfMaxElements }));
          } else notifyApiError(error);
        },
      },
    );
  }

  return (
    <>
      <PageHeader
        title={table.data?.title ?? t('areas.allergens')}
        subtitle={table.data ? t('areas.allergens') : undefined}
        actions={
          <>
            {pdfMutation.isPending ? (
              <Group gap="xs" aria-live="polite" data-testid="allergens-pdf-progress">
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  {t('allergens.generating')}
                </Text>
              </Group>
            ) : null}
            <LoadingButton
              leftSection={<IconDownload size={16} />}
              onClick={handleDownload}
              loading={pdfMutation.isPending}
              disabled={!table.isSuccess}
              data-testid="allergens-pdf"
            >
              {t('allergens.downloadPdf')}
            </LoadingButton>
          </>
        }
      />
      <QueryContent
        query={table}
        isEmpty={(data) => groupsWithAllergens(data.groups).length === 0}
        emptyTitle={t('allergens.empty')}
      >
        {(data) => (
          <Stack gap="lg">
            <AllergenTable groups={groupsWithAllergens(data.groups)} />
            <AllergenLegend />
          </Stack>
        )}
      </QueryContent>
    </>
  );
}
