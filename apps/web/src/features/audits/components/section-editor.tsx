import { Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { type AuditSection, auditLimits } from '@mise/shared/audits/schemas';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuilderActions } from './builder-actions';

/** The selected section's title (required, spec 002 §5), its new question and removal. */
export const SectionEditor = memo(function SectionEditor({ section }: { section: AuditSection }) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  return (
    <Card withBorder radius="md" data-testid="section-editor">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('audits.section.title')}
        </Title>
        <TextInput
          label={t('audits.section.name')}
          value={section.title}
          onChange={(event) => actions.renameSection(section.id, event.currentTarget.value)}
          maxLength={auditLimits.sectionTitleMax}
          withAsterisk
          data-testid="section-name"
        />
        <Group gap="sm" wrap="wrap">
          <Button
            variant="light"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => actions.addQuestion(section.id)}
            data-testid="section-editor-add-question"
          >
            {t('audits.builder.addQuestion')}
          </Button>
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => actions.removeSection(section.id)}
            data-testid="section-remove"
          >
            {t('audits.builder.removeSection')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
});
