import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../../shared/i18n/language-picker';

type AuthLayoutProps = {
  title: ReactNode;
  children: ReactNode;
};

/** The frame of the signed-out screens: product name, language picker, one card. */
export function AuthLayout({ title, children }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0" p="md">
      <Group justify="flex-end">
        <LanguagePicker />
      </Group>
      <Center mt="xl">
        <Stack w="100%" maw={440} gap="md">
          <Stack gap={0} align="center">
            <Title order={1} c="teal.7">
              {t('app.name')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" radius="md" p="xl">
            <Title order={3} mb="md">
              {title}
            </Title>
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
