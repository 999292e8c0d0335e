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
            <Text fz={34} fw={700} lh={1.3} c="teal.7">
              {t('app.name')}
            </Text>
            <Text c="dimmed" size="sm">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" radius="md" p="xl">
            {/* The screen's one h1 (login, registration...), drawn at h3 size. */}
            <Title order={1} size="h3" mb="md">
              {title}
            </Title>
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
