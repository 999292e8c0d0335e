import { Anchor, Breadcrumbs, Button, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type Crumb = { key: string; label: string; onOpen: () => void };

type DocumentBreadcrumbProps = {
  /** From the root to the folder shown; the last one is where the user stands. */
  crumbs: Crumb[];
  onBack: () => void;
};

/** Back (one level up) and the way from the root to the folder shown, each step a link. */
export function DocumentBreadcrumb({ crumbs, onBack }: DocumentBreadcrumbProps) {
  const { t } = useTranslation();
  const last = crumbs.length - 1;
  return (
    <Group gap="sm" mb="sm" wrap="nowrap" align="center">
      <Button
        variant="default"
        size="compact-sm"
        leftSection={<IconArrowLeft size={14} aria-hidden />}
        onClick={onBack}
        data-testid="documents-back"
      >
        {t('documents.back')}
      </Button>
      <nav aria-label={t('documents.breadcrumb')} style={{ minWidth: 0 }}>
        <Breadcrumbs
          separatorMargin={4}
          style={{ flexWrap: 'wrap' }}
          data-testid="documents-breadcrumb"
        >
          {crumbs.map((crumb, index) =>
            index === last ? (
              <Text key={crumb.key} size="sm" fw={500} aria-current="page">
                {crumb.label}
              </Text>
            ) : (
              <Anchor
                key={crumb.key}
                component="button"
                type="button"
                size="sm"
                onClick={crumb.onOpen}
              >
                {crumb.label}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      </nav>
    </Group>
  );
}
