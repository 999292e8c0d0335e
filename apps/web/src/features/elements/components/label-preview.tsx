import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { type LabelValues, printLabel } from '@mise/shared/catalogue/rules';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const printBodyClass = 'mise-printing-label';
const printAreaClass = 'mise-label-print';
/** While printing a label, only its card is visible. */
const printStyle = `@media print {
  body.${printBodyClass} * { visibility: hidden; }
  body.${printBodyClass} .${printAreaClass}, body.${printBodyClass} .${printAreaClass} * { visibility: visible; }
  body.${printBodyClass} .${printAreaClass} { position: fixed; left: 0; top: 0; box-shadow: none; }
}`;

type LabelPreviewProps = { label: LabelValues; elementName: string; now?: Date };

/** What the label prints right now (printLabel), formatted in the user's language. */
export function LabelPreview({ label, elementName, now }: LabelPreviewProps) {
  const { t, i18n } = useTranslation();
  const printed = printLabel(label, elementName, now ?? new Date());
  const format = (date: Date, withHour: boolean, withWeekday: boolean) =>
    new Intl.DateTimeFormat(i18n.language, {
      weekday: withWeekday ? 'long' : undefined,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: withHour ? '2-digit' : undefined,
      minute: withHour ? '2-digit' : undefined,
    }).format(date);

  function handlePrint() {
    document.body.classList.add(printBodyClass);
    try {
      window.print();
    } finally {
      document.body.classList.remove(printBodyClass);
    }
  }

  return (
    <Stack gap="xs" data-testid="label-preview">
      <style>{printStyle}</style>
      <Card withBorder padding="sm" maw={320} className={printAreaClass}>
        <Text fw={700} data-testid="label-preview-element">
          {printed.elementName}
        </Text>
        <Text size="sm" data-testid="label-preview-name">
          {printed.labelName}
        </Text>
        {printed.defrostedAt ? (
          <Text size="sm" data-testid="label-preview-defrosted">
            {t('label.preview.defrostedAt', { date: format(printed.defrostedAt, true, false) })}
          </Text>
        ) : null}
        {printed.expiresAt ? (
          <Text size="sm" fw={600} data-testid="label-preview-expires">
            {t('label.preview.expiresAt', {
              date: format(printed.expiresAt, printed.showHour, printed.showWeekday),
            })}
          </Text>
        ) : null}
        {printed.text ? (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="label-preview-text">
            {printed.text}
          </Text>
        ) : null}
      </Card>
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPrinter size={14} />}
          onClick={handlePrint}
          data-testid="label-print"
        >
          {t('label.print')}
        </Button>
      </Group>
    </Stack>
  );
}
