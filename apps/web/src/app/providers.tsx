import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../shared/i18n/i18n';
import { noticeDurationMs, noticeFadeMs } from '../shared/ui/notify';
import { cssVariablesResolver, theme } from './theme';

type AppProvidersProps = {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (component tests). */
  mantineEnvironment?: 'default' | 'test';
};

export function AppProviders({
  queryClient,
  children,
  mantineEnvironment = 'default',
}: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        env={mantineEnvironment}
      >
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications
              position="top-right"
              autoClose={noticeDurationMs}
              transitionDuration={noticeFadeMs}
            />
            {children}
          </ModalsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
