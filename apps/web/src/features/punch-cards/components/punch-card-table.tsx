import { ActionIcon, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { pairEntries, totalHours } from '@mise/shared/people/rules';
import type { PunchCards } from '@mise/shared/people/schemas';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDayMonth } from '../../../shared/format/store-clock';
import { dayEntries, type EditableEntry, employeeEntries, formatHours } from './punch-card-editing';
import { PunchEntryBadge } from './punch-entry-badge';

type PunchCardTableProps = {
  employees: PunchCards['employees'];
  entries: readonly EditableEntry[];
  days: readonly string[];
  zone: string;
  incoherentKeys: ReadonlySet<string>;
  /** Without edit rights, no add buttons and the badges do not open. */
  isEditable: boolean;
  onAdd: (employeeId: string, day: string) => void;
  onOpen: (entry: EditableEntry) => void;
};

/**
 * The punch-card table (spec 000 §2): one row per active employee, one column per day with
 * the day's badges paired entrance-then-exit and an add button, the employee's total hours,
 * and a footer with the hours of all.
 */
export function PunchCardTable({
  employees,
  entries,
  days,
  zone,
  incoherentKeys,
  isEditable,
  onAdd,
  onOpen,
}: PunchCardTableProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const totals = new Map(
    employees.map((employee) => [employee.id, totalHours(employeeEntries(entries, employee.id))]),
  );
  const grandTotal = [...totals.values()].reduce((sum, hours) => sum + hours, 0);
  // The totals column stays at the right edge while the days scroll under it.
  const stickyTotal = {
    whiteSpace: 'nowrap',
    position: 'sticky',
    right: 0,
    zIndex: 1,
    background: 'var(--mantine-color-body)',
    boxShadow: 'inset 1px 0 0 var(--table-border-color)',
  } as const;

  return (
    <Table.ScrollContainer minWidth={240 + days.length * 130}>
      <Table
        withTableBorder
        withColumnBorders
        striped
        verticalSpacing="xs"
        data-testid="punch-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('punchCards.employee')}</Table.Th>
            {days.map((day) => (
              <Table.Th key={day} ta="center" data-day={day}>
                {formatDayMonth(day)}
              </Table.Th>
            ))}
            <Table.Th ta="right" style={stickyTotal}>
              {t('punchCards.total')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {employees.map((employee) => (
            <Table.Tr key={employee.id} data-testid="punch-row" data-employee-id={employee.id}>
              <Table.Td>
                <Text size="sm" fw={500} data-testid="punch-employee-name">
                  {`${employee.name.trim()} ${employee.surname.trim()}`.trim()}
                </Text>
                <Text size="xs" c="dimmed" data-testid="punch-employee-role">
                  {employee.role_name ?? t('punchCards.noRole')}
                </Text>
              </Table.Td>
              {days.map((day) => {
                const pairs = pairEntries(dayEntries(entries, employee.id, day, zone));
                return (
                  <Table.Td key={day} data-testid="punch-cell" data-day={day} valign="top">
                    <Stack gap={4} align="center">
                      {pairs.map((pair) => (
                        <Group
                          key={(pair.in ?? pair.out)?.key}
                          gap={4}
                          wrap="nowrap"
                          data-testid="punch-pair"
                        >
                          {pair.in ? (
                            <PunchEntryBadge
                              entry={pair.in}
                              zone={zone}
                              isIncoherent={incoherentKeys.has(pair.in.key)}
                              onOpen={isEditable ? onOpen : undefined}
                            />
                          ) : null}
                          {pair.out ? (
                            <PunchEntryBadge
                              entry={pair.out}
                              zone={zone}
                              isIncoherent={incoherentKeys.has(pair.out.key)}
                              onOpen={isEditable ? onOpen : undefined}
                            />
                          ) : null}
                        </Group>
                      ))}
                      {isEditable ? (
                        <Tooltip label={t('punchCards.add')} withArrow>
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label={t('punchCards.add')}
                            onClick={() => onAdd(employee.id, day)}
                            data-testid="punch-add"
                          >
                            <IconPlus size={14} />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                    </Stack>
                  </Table.Td>
                );
              })}
              <Table.Td ta="right" data-testid="punch-total" style={stickyTotal}>
                {formatHours(totals.get(employee.id) ?? 0, language)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={days.length + 1}>{t('punchCards.totalAll')}</Table.Th>
            <Table.Th ta="right" data-testid="punch-footer-total" style={stickyTotal}>
              {formatHours(grandTotal, language)}
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
