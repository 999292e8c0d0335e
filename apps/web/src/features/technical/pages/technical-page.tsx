import { Alert, Button, Center, Loader, Stack, Tabs, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useServerInstances } from '../api/get-server-instances';
import { GenerationPanel } from '../components/generation-panel';
import { OutputPanel } from '../components/output-panel';
import { ProfilingPanel } from '../components/profiling-panel';
import { ServerInstances } from '../components/server-instances';

/** The spec's order (002 §2): profiling, task generation, Output. */
const technicalTabs = ['profiling', 'taskGeneration', 'output'] as const;
type TechnicalTab = (typeof technicalTabs)[number];

function isTechnicalTab(value: string | null): value is TechnicalTab {
  return (technicalTabs as readonly string[]).includes(value ?? '');
}

/**
 * /technical?tab= (spec 002 §2, admin only): "The server" with its live instances, then the
 * profiling, task generation and Output tabs for the chosen instance (default: the one that
 * answered). Only the open tab reads: its polling stops when another tab is chosen.
 */
export function TechnicalPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get('tab');
  const tab: TechnicalTab = isTechnicalTab(tabParam) ? tabParam : 'profiling';
  const instances = useServerInstances();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const items = instances.data ?? [];
  const instance =
    items.find((item) => item.id === chosenId) ??
    items.find((item) => item.is_current) ??
    items[0] ??
    null;
  const isUnreachable = instances.isError && isApiError(instances.error, 'network');

  function handleTabChange(value: string | null) {
    if (!isTechnicalTab(value)) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  }

  const unableToConnect = (
    <Alert
      color="red"
      icon={<IconPlugConnectedX size={18} />}
      title={t('technical.unableToConnect')}
      data-testid="technical-unable-to-connect"
    >
      <Stack gap="xs" align="flex-start">
        {t('technical.unableToConnectHint')}
        <Button
          size="xs"
          variant="default"
          onClick={() => void instances.refetch()}
          loading={instances.isFetching}
          data-testid="technical-retry"
        >
          {t('technical.retry')}
        </Button>
      </Stack>
    </Alert>
  );

  function renderServer() {
    if (instances.isPending) {
      return (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      );
    }
    if (instances.data === undefined) {
      // Failed before any answer: the message of the spec when the API is out of reach.
      return isUnreachable ? null : (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, instances.error)}
          testId="technical-error"
        />
      );
    }
    if (!instance) return <EmptyState title={t('technical.server.none')} testId="technical-none" />;
    return <ServerInstances instances={items} value={instance.id} onChange={setChosenId} />;
  }

  return (
    <>
      <PageHeader title={t('technical.title')} />
      <Stack gap="lg" data-testid="technical-page">
        {isUnreachable ? unableToConnect : null}
        <section aria-labelledby="technical-server-title">
          <Title order={2} size="h4" mb="xs" id="technical-server-title">
            {t('technical.server.title')}
          </Title>
          {renderServer()}
        </section>
        {instance ? (
          <Tabs value={tab} onChange={handleTabChange} keepMounted={false}>
            <Tabs.List>
              {technicalTabs.map((value) => (
                <Tabs.Tab key={value} value={value} data-testid={`technical-tab-${value}`}>
                  {t(`technical.tabs.${value}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="profiling" pt="md">
              <ProfilingPanel key={instance.id} instance={instance} />
            </Tabs.Panel>
            <Tabs.Panel value="taskGeneration" pt="md">
              <GenerationPanel />
            </Tabs.Panel>
            <Tabs.Panel value="output" pt="md">
              <OutputPanel key={instance.id} instanceId={instance.id} />
            </Tabs.Panel>
          </Tabs>
        ) : null}
      </Stack>
    </>
  );
}
