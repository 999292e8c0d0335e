import { Table, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A yes/no fact of a result (oil changed, cleaned...): a check or a cross with its word. */
export function BooleanMark({ value, testId }: { value: boolean; testId?: string }) {
  const { t } = useTranslation();
  const label = value ? t('history.yes') : t('history.no');
  return (
    <ThemeIcon
      size="sm"
      variant="light"
      color={value ? 'teal' : 'gray'}
      role="img"
      aria-label={label}
      title={label}
      data-testid={testId}
      data-value={String(value)}
    >
      {value ? <IconCheck size={14} /> : <IconX size={14} />}
    </ThemeIcon>
  );
}

/** A result table's frame: headers and rows, scrolling sideways on narrow screens. */
export function ResultTable({
  headers,
  children,
  testId,
  minWidth = 560,
}: {
  headers: readonly ReactNode[];
  children: ReactNode;
  testId: string;
  minWidth?: number;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped withTableBorder verticalSpacing="xs" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed column order
              <Table.Th key={index}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** What an empty cell shows. */
export function Missing() {
  return (
    <Text span c="dimmed" size="sm">
      —
    </Text>
  );
}
